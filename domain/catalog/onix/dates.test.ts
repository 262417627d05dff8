import { describe, expect, it } from 'vitest';
import { onixDate } from './dates.ts';

// Issue 15: "publication date in every DateFormat (attribute or element)" — EDITEUR code
// list 55.
describe('onixDate (ONIX code list 55)', () => {
  it('reads days, months and years', () => {
    expect(onixDate('20240315', '00')).toBe('2024-03-15');
    expect(onixDate('202403', '01')).toBe('2024-03-01');
    expect(onixDate('2024', '05')).toBe('2024-01-01');
  });

  it('infers the format from the value when none is given', () => {
    expect(onixDate('20240315', null)).toBe('2024-03-15');
    expect(onixDate('202403', null)).toBe('2024-03-01');
    expect(onixDate(' 2024 ', null)).toBe('2024-01-01');
    expect(onixDate('20240315T1030+0100', null)).toBe('2024-03-15');
  });

  it('reads ISO weeks from their Monday', () => {
    expect(onixDate('202401', '02')).toBe('2024-01-01');
    expect(onixDate('202101', '02')).toBe('2021-01-04');
    expect(onixDate('202053', '02')).toBe('2020-12-28');
    expect(onixDate('202153', '02')).toBeNull();
  });

  it('reads quarters and seasons from their first month', () => {
    expect(onixDate('20243', '03')).toBe('2024-07-01');
    expect(onixDate('20242', '04')).toBe('2024-06-01');
    expect(onixDate('20245', '03')).toBeNull();
  });

  it('reads a range as its start', () => {
    expect(onixDate('2024031520240420', '06')).toBe('2024-03-15');
    expect(onixDate('202403202404', '07')).toBe('2024-03-01');
    expect(onixDate('202410202420', '08')).toBe('2024-03-04');
    expect(onixDate('2024220251', '09')).toBe('2024-04-01');
    expect(onixDate('2024320251', '10')).toBe('2024-09-01');
    expect(onixDate('20242025', '11')).toBe('2024-01-01');
  });

  it('reads text and date-times', () => {
    expect(onixDate('15 March 2024', '12')).toMatch(/^2024-03-1[45]$/);
    expect(onixDate('20240315T1030', '13')).toBe('2024-03-15');
    expect(onixDate('20240315T103000Z', '14')).toBe('2024-03-15');
  });

  it('converts Hijri dates as the civil Islamic calendar reckons them', () => {
    const civil = (iso: string) =>
      new Intl.DateTimeFormat('en-u-ca-islamic-civil-nu-latn', {
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        timeZone: 'UTC',
      })
        .formatToParts(new Date(`${iso}T12:00:00Z`))
        .filter((p) => p.type !== 'literal' && p.type !== 'era')
        .map((p) => `${p.type}=${Number.parseInt(p.value, 10)}`)
        .sort()
        .join(' ');
    const day = onixDate('14460101', '20');
    expect(day).not.toBeNull();
    expect(civil(day!)).toBe('day=1 month=1 year=1446');
    expect(civil(onixDate('144509', '21')!)).toBe('day=1 month=9 year=1445');
    expect(civil(onixDate('1440', '25')!)).toBe('day=1 month=1 year=1440');
  });

  it('reads a value that does not fit its format as no date, never a wrong one', () => {
    expect(onixDate('20240230', '00')).toBeNull();
    expect(onixDate('2024-03-15', '00')).toBeNull();
    expect(onixDate('202413', '01')).toBeNull();
    expect(onixDate('soon', '12')).toBeNull();
    expect(onixDate('20240315', '99')).toBeNull();
  });
});
