import { parse } from 'csv-parse';
import { MAX_PAID_ROWS } from './billing-limits.ts';

/**
 * Issue 39: the campus's paid file for reconciliation — CSV with a header line, a campus id
 * column and an amount column (decimal dollars, or integer cents under an `amount_cents`
 * header), a section column optional and ignored (the campus pays an account). Read as a
 * stream by csv-parse, one record at a time (no record past MAX_PAID_RECORD_CHARS, so a file
 * without line breaks is never held whole), at most MAX_PAID_ROWS lines; a bad line refuses
 * the file with its number.
 */
export const MAX_PAID_RECORD_CHARS = 10_000;

export type PaidFile =
  | { ok: true; paid: Map<string, number>; rows: number }
  | {
      ok: false;
      problem:
        | 'ops.billing.paid.error.columns'
        | 'ops.billing.paid.error.amount'
        | 'ops.billing.paid.error.campusId'
        | 'ops.billing.paid.error.tooMany'
        | 'ops.billing.paid.error.malformed';
      line: number;
    };

const CAMPUS_ID_HEADERS = ['campus_id', 'campus id', 'student id', 'student_id'];
const DECIMAL_HEADERS = ['amount', 'paid', 'amount_decimal'];
const CENTS_HEADERS = ['amount_cents', 'paid_cents'];

/** '79.00', '79', '-79.5' → cents; anything else → null. */
export function centsOfDecimal(text: string): number | null {
  const match = /^(-?)(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '0').padEnd(2, '0'));
  return match[1] === '-' ? -cents : cents;
}

export async function readPaidFile(
  source: AsyncIterable<Uint8Array | string>,
  headers: { campusId: string; amountDecimal: string | null; amountCents: string | null },
): Promise<PaidFile> {
  const parser = parse({
    bom: true,
    relax_column_count: false,
    skip_empty_lines: true,
    trim: true,
    max_record_size: MAX_PAID_RECORD_CHARS,
  });
  const feeding = (async () => {
    try {
      for await (const chunk of source) {
        if (!parser.write(chunk)) await new Promise((resolve) => parser.once('drain', resolve));
      }
      parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();
  const lower = (h: string) => h.trim().toLowerCase();
  const campusNames = [lower(headers.campusId), ...CAMPUS_ID_HEADERS];
  const decimalNames = [
    ...(headers.amountDecimal ? [lower(headers.amountDecimal)] : []),
    ...DECIMAL_HEADERS,
  ];
  const centsNames = [
    ...(headers.amountCents ? [lower(headers.amountCents)] : []),
    ...CENTS_HEADERS,
  ];
  const paid = new Map<string, number>();
  let line = 0;
  let campusAt = -1;
  let amountAt = -1;
  let inCents = false;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      line += 1;
      if (line === 1) {
        const names = record.map(lower);
        campusAt = names.findIndex((n) => campusNames.includes(n));
        amountAt = names.findIndex((n) => centsNames.includes(n));
        inCents = amountAt >= 0;
        if (!inCents) amountAt = names.findIndex((n) => decimalNames.includes(n));
        if (campusAt < 0 || amountAt < 0)
          return done({ ok: false, problem: 'ops.billing.paid.error.columns', line });
        continue;
      }
      if (line - 1 > MAX_PAID_ROWS)
        return done({ ok: false, problem: 'ops.billing.paid.error.tooMany', line });
      const campusId = record[campusAt] ?? '';
      if (campusId === '' || campusId.length > 100 || campusId.includes('\u0000')) {
        return done({ ok: false, problem: 'ops.billing.paid.error.campusId', line });
      }
      const raw = record[amountAt] ?? '';
      const cents = inCents ? (/^-?\d{1,11}$/.test(raw) ? Number(raw) : null) : centsOfDecimal(raw);
      if (cents === null || !Number.isSafeInteger(cents)) {
        return done({ ok: false, problem: 'ops.billing.paid.error.amount', line });
      }
      paid.set(campusId, (paid.get(campusId) ?? 0) + cents);
    }
  } catch (error) {
    // csv-parse counts the file's lines itself (a quoted field may span several).
    const at = (error as { lines?: unknown }).lines;
    const where = typeof at === 'number' && at > line ? at : line + 1;
    return done({ ok: false, problem: 'ops.billing.paid.error.malformed', line: where });
  }
  await feeding;
  if (line === 0) return { ok: false, problem: 'ops.billing.paid.error.columns', line: 1 };
  return { ok: true, paid, rows: line - 1 };

  function done(outcome: PaidFile): PaidFile {
    parser.destroy();
    return outcome;
  }
}
