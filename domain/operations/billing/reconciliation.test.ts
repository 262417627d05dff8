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

  it('a paid difference names the student, the sections and what the rule expects of them (walk of issue 39)', () => {
    // The walk: four students opted in at $39, billed $39 each; the campus paid RB1001 in full,
    // S000037 in part, nothing for S000041 and S000049, and $39 for an unknown S999999.
    const ids = ['RB1001', 'S000037', 'S000041', 'S000049'];
    const student = (campusId: string, i: number) => ({
      sectionId: 14,
      userId: 100 + i,
      campusId,
      name: `Student ${campusId}`,
      courseCode: 'ENG 101',
      sectionLabel: '002',
      cents: 3900,
    });
    const result = reconcile({
      expected: ids.map(student),
      billed: ids.map((id, i) => ({ ...student(id, i), campusId: id })),
      paid: new Map([
        ['RB1001', 3900],
        ['S000037', 2000],
        ['S999999', 3900],
      ]),
    });
    expect(result).toMatchObject({ expectedCents: 15600, billedCents: 15600, paidCents: 9800 });
    expect(
      result.differences.map((d) => [
        d.campusId,
        d.name,
        d.place,
        d.expectedCents,
        d.billedCents,
        d.paidCents,
        d.reason,
      ]),
    ).toEqual([
      [
        'S000037',
        'Student S000037',
        'ENG 101 002',
        3900,
        3900,
        2000,
        'ops.billing.recon.reason.paidDiffers',
      ],
      [
        'S000041',
        'Student S000041',
        'ENG 101 002',
        3900,
        3900,
        0,
        'ops.billing.recon.reason.paidDiffers',
      ],
      [
        'S000049',
        'Student S000049',
        'ENG 101 002',
        3900,
        3900,
        0,
        'ops.billing.recon.reason.paidDiffers',
      ],
      ['S999999', '', '', 0, 0, 3900, 'ops.billing.recon.reason.paidUnknown'],
    ]);
  });

  it('a student billed in two sections is paid once: expected and sections are summed per student', () => {
    const result = reconcile({
      expected: [expected(1), { ...expected(1), sectionId: 2, sectionLabel: '002' }],
      billed: [billed(1), { ...billed(1), sectionId: 2, sectionLabel: '002' }],
      paid: new Map([['S1', 7900]]),
    });
    expect(result.differences).toEqual([
      {
        campusId: 'S1',
        name: 'N1',
        place: 'BIO 101 001, BIO 101 002',
        expectedCents: 15800,
        billedCents: 15800,
        paidCents: 7900,
        reason: 'ops.billing.recon.reason.paidDiffers',
      },
    ]);
  });

  it('joins expected to paid by the campus id the student was billed under, even if it changed since', () => {
    const result = reconcile({
      expected: [expected(1, 7900, 'NEW1')],
      billed: [billed(1)],
      paid: new Map([['S1', 0]]),
    });
    expect(result.differences.map((d) => [d.campusId, d.expectedCents, d.place])).toEqual([
      ['S1', 7900, 'BIO 101 001'],
    ]);
  });

  it('a payment for a student expected but never billed is "paid, never billed" with what is expected', () => {
    const result = reconcile({
      expected: [expected(2)],
      billed: [],
      paid: new Map([['S2', 7900]]),
    });
    expect(result.differences.map((d) => [d.campusId, d.reason, d.expectedCents, d.place])).toEqual(
      [
        ['S2', 'ops.billing.recon.reason.notBilled', 7900, 'BIO 101 001'],
        ['S2', 'ops.billing.recon.reason.paidUnknown', 7900, 'BIO 101 001'],
      ],
    );
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
