import type { ReactNode } from 'react';

/** The additional details table (spec 1 §2): label and value rows, empty values left out. */
export function DetailsTable({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <table className="details-table">
      <tbody>
        {rows
          .filter(([, value]) => value !== null && value !== undefined && value !== '')
          .map(([label, value], n) => (
            // Not keyed by the label: a label is '' until its language's messages arrive.
            // biome-ignore lint/suspicious/noArrayIndexKey: the rows of one render, never reordered
            <tr key={n}>
              <th scope="row">{label}</th>
              <td>{value}</td>
            </tr>
          ))}
      </tbody>
    </table>
  );
}
