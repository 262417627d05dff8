import { describe, expect, it } from 'vitest';
import type { BillingLine } from './billing-lines.ts';
import {
  chargeFile,
  chargeFileName,
  checkMapping,
  DEFAULT_BILLING_COLUMNS,
  decimalAmount,
  headerLine,
} from './charge-file.ts';

// Issue 39: the charge file in the campus's columns and headers, as CSV written safely.
const line: BillingLine = {
  kind: 'charge',
  sectionId: 1,
  courseCode: 'BIO 101',
  sectionLabel: '001',
  userId: 7,
  campusId: '=HYPERLINK("x")',
  name: 'Zoë, "Z" Ng',
  email: 'z@example.test',
  amountCents: 7900,
  reversesChargeId: null,
  creditReason: null,
};
const context = { termTitle: 'Fall 2026', currency: 'USD', describe: () => 'Course fee BIO 101' };

describe('chargeFile (issue 39)', () => {
  it('writes the default columns with CRLF lines, quoting and neutralising formulas', () => {
    expect(
      chargeFile(
        DEFAULT_BILLING_COLUMNS,
        [line, { ...line, kind: 'credit', campusId: 'S2', amountCents: -7900 }],
        context,
      ),
    ).toBe(
      'Student ID,Amount,Currency,Term,Course,Section,Description,Type\r\n' +
        `"'=HYPERLINK(""x"")",79.00,USD,Fall 2026,BIO 101,001,Course fee BIO 101,charge\r\n` +
        'S2,-79.00,USD,Fall 2026,BIO 101,001,Course fee BIO 101,credit\r\n',
    );
  });

  it("follows the campus's mapping: its fields, headers and order", () => {
    const columns = [
      { field: 'amount_cents', header: 'AMT' },
      { field: 'student_name', header: 'Name' },
      { field: 'campus_id', header: 'ID' },
    ] as const;
    expect(chargeFile(columns, [{ ...line, campusId: '000123' }], context)).toBe(
      'AMT,Name,ID\r\n7900,"Zoë, ""Z"" Ng",000123\r\n',
    );
    expect(headerLine(columns)).toBe('AMT,Name,ID\r\n');
  });

  it('writes cents as decimals exactly', () => {
    expect(decimalAmount(7900)).toBe('79.00');
    expect(decimalAmount(5)).toBe('0.05');
    expect(decimalAmount(-12345)).toBe('-123.45');
  });

  it('names the file by its sequence number and term', () => {
    expect(chargeFileName({ termTitle: 'Fall 2026 / Automne', sequence: 3 })).toBe(
      'charges-0003-Fall-2026-Automne.csv',
    );
  });
});

describe('checkMapping (issue 39)', () => {
  it('keeps the rows with a field, in order', () => {
    expect(
      checkMapping([
        { field: 'campus_id', header: ' ID ' },
        { field: null, header: '' },
        { field: 'amount_decimal', header: 'Amount' },
      ]),
    ).toEqual({
      ok: true,
      columns: [
        { field: 'campus_id', header: 'ID' },
        { field: 'amount_decimal', header: 'Amount' },
      ],
    });
  });

  it('refuses a missing header, a header twice, a field twice, control characters, and no id or amount', () => {
    const check = checkMapping([
      { field: 'campus_id', header: '' },
      { field: 'term', header: 'T' },
      { field: 'course_code', header: 't' },
      { field: 'term', header: 'U' },
      { field: 'email', header: 'E\u0000' },
      { field: 'section', header: 'x'.repeat(101) },
    ]);
    expect(check).toEqual({
      ok: false,
      rows: {
        0: 'ops.billing.mapping.error.header',
        2: 'ops.billing.mapping.error.headerTwice',
        3: 'ops.billing.mapping.error.fieldTwice',
        4: 'ops.billing.mapping.error.header',
        5: 'ops.billing.mapping.error.headerTooLong',
      },
      missing: ['amount'],
    });
    expect(checkMapping([{ field: 'amount_cents', header: 'A' }])).toMatchObject({
      ok: false,
      missing: ['campus_id'],
    });
  });
});
