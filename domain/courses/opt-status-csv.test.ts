import { describe, expect, it } from 'vitest';
import { csvCell, type OptStatusRow, optStatusCsv } from './opt-status-csv.ts';

describe('the opt status download (issue 6)', () => {
  it('neutralises cells a spreadsheet would run as formulas (CSV injection)', () => {
    for (const value of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) {
      expect(csvCell(value).replace(/^"/, '').startsWith("'")).toBe(true);
    }
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('Plain text')).toBe('Plain text');
  });

  it('quotes commas, quotes and line breaks (RFC 4180)', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  it('writes the header, then one line per member, in column order', () => {
    const row: OptStatusRow = {
      memberId: 'RSM-1',
      lastName: 'Lee',
      firstName: 'Ana',
      email: 'ana@example.test',
      optStatus: 'opted_out',
      reason: 'Other',
      message: 'Library copy, thanks',
      changedAt: '2026-11-23T15:00:00.000Z',
      changedBy: 'ana@example.test',
    };
    expect(optStatusCsv(['A', 'B'], [row])).toBe(
      'A,B\r\nRSM-1,Lee,Ana,ana@example.test,opted_out,Other,"Library copy, thanks",2026-11-23T15:00:00.000Z,ana@example.test\r\n',
    );
  });
});
