import type { ReactNode } from 'react';

/** The additional details table (spec 1 §2): label and value rows, empty values left out. */
export function DetailsTable({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <table className="details-table">
      <tbody>
        {rows
          .filter(([, value]) => value !== null && value !== undefined && value !== '')
          .map(([label, value]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>{value}</td>
            </tr>
          ))}
      </tbody>
    </table>
  );
}
