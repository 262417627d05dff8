import { describe, expect, it } from 'vitest';
import { readPaidFile } from './paid-file.ts';
import { reconcile } from './reconciliation.ts';

// Issue 39, reconciliation: billed vs opted-in vs paid, every difference by student.
const place = { courseCode: 'BIO 101', sectionLabel: '001' };
const expected = (userId: number, cents = 7900, campusId: string | null = `S${userId}`) => ({
  sectionId: 1,
  userId,
  campusId,
  name: `N${userId}`,
  ...place,
  cents,
});
const billed = (userId: number, cents = 7900) => ({
  sectionId: 1,
  userId,
  campusId: `S${userId}`,
  name: `N${userId}`,
  ...place,
  cents,
});

describe('reconcile (issue 39)', () => {
  it('lists who is expected but not billed, billed but not expected, and a wrong amount', () => {
    const result = reconcile({
      expected: [expected(1), expected(2), expected(3, 7900, null), expected(5, 5000)],
      billed: [billed(1), billed(4), billed(5)],
      paid: null,
    });
    expect(
      result.differences.map((d) => [d.campusId, d.reason, d.expectedCents, d.billedCents]),
    ).toEqual([
      [null, 'ops.billing.recon.reason.missingCampusId', 7900, 0],
      ['S2', 'ops.billing.recon.reason.notBilled', 7900, 0],
      ['S4', 'ops.billing.recon.reason.billedNotExpected', 0, 7900],
      ['S5', 'ops.billing.recon.reason.amountDiffers', 5000, 7900],
    ]);
    expect(result).toMatchObject({ expectedCents: 28700, billedCents: 23700, paidCents: null });
  });

  it('a credited charge nets to nothing and matches a student no longer expected', () => {
    expect(reconcile({ expected: [], billed: [billed(1, 0)], paid: null }).differences).toEqual([]);
  });

  it('compares what the campus paid per student, and names payments for unknown students', () => {
    const result = reconcile({
      expected: [expected(1), expected(2)],
      billed: [billed(1), billed(2)],
      paid: new Map([
        ['S1', 7900],
        ['S2', 4000],
        ['S9', 100],
      ]),
    });
    expect(
      result.differences.map((d) => [d.campusId, d.reason, d.billedCents, d.paidCents]),
    ).toEqual([
      ['S2', 'ops.billing.recon.reason.paidDiffers', 7900, 4000],
      ['S9', 'ops.billing.recon.reason.paidUnknown', 0, 100],
    ]);
    expect(result.paidCents).toBe(12000);
  });
});

async function* chunks(text: string) {
  // Split mid-line and mid-character: the parser reads a stream, not a string.
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i += 7) yield bytes.slice(i, i + 7);
}
const headers = { campusId: 'Student ID', amountDecimal: 'Amount', amountCents: null };

describe('readPaidFile (issue 39)', () => {
  it('reads the campus id and amount by header, with a BOM, CRLF and quotes, summing per student', async () => {
    const file =
      '\uFEFFSection,"Student ID",Amount\r\n001,S1,79.00\r\n002,S1,"1.5"\r\n001,Ünï-2,-3\r\n';
    expect(await readPaidFile(chunks(file), headers)).toEqual({
      ok: true,
      paid: new Map([
        ['S1', 8050],
        ['Ünï-2', -300],
      ]),
      rows: 3,
    });
  });

  it('reads integer cents under an amount_cents header', async () => {
    expect(await readPaidFile(chunks('campus_id,amount_cents\nS1,7900\n'), headers)).toMatchObject({
      ok: true,
      paid: new Map([['S1', 7900]]),
    });
  });

  it('refuses missing columns, a bad amount or campus id, and broken CSV, with the line', async () => {
    expect(await readPaidFile(chunks('id,total\nS1,1\n'), headers)).toEqual({
      ok: false,
      problem: 'ops.billing.paid.error.columns',
      line: 1,
    });
    expect(await readPaidFile(chunks('Student ID,Amount\nS1,79.00\nS2,12abc\n'), headers)).toEqual({
      ok: false,
      problem: 'ops.billing.paid.error.amount',
      line: 3,
    });
    expect(await readPaidFile(chunks('Student ID,Amount\n,79.00\n'), headers)).toMatchObject({
      problem: 'ops.billing.paid.error.campusId',
    });
    expect(await readPaidFile(chunks('Student ID,Amount\n"S1,79.00\n'), headers)).toMatchObject({
      ok: false,
      problem: 'ops.billing.paid.error.malformed',
    });
    expect(await readPaidFile(chunks(''), headers)).toMatchObject({
      problem: 'ops.billing.paid.error.columns',
    });
  });
});
