// ONIX dates (code list 55, DateFormat): the day a date, month, week, quarter, season or year
// begins, as an ISO calendar date. A range is read as its start; Hijri dates are converted from
// the tabular Islamic calendar. A value that does not fit its format reads as no date.

/** 'YYYY-MM-DD', checked to be a real day. */
function isoDay(year: number, month: number, day: number): string | null {
  if (year < 1 || month < 1 || month > 12 || day < 1) return null;
  const at = new Date(Date.UTC(year, month - 1, day));
  if (at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return null;
  return at.toISOString().slice(0, 10);
}

/** Monday of ISO week `week` of `year`. */
function isoWeekStart(year: number, week: number): string | null {
  if (week < 1 || week > 53) return null;
  const jan4 = new Date(Date.UTC(year, 0, 4));
  const mondayOfWeek1 = Date.UTC(year, 0, 4 - ((jan4.getUTCDay() + 6) % 7));
  const start = new Date(mondayOfWeek1 + (week - 1) * 7 * 86_400_000);
  // Week 53 exists only in years that have it.
  if (week === 53 && isoWeekStart(year + 1, 1) === start.toISOString().slice(0, 10)) return null;
  return start.toISOString().slice(0, 10);
}

/** Tabular (civil) Islamic calendar to Gregorian. */
function hijriDay(year: number, month: number, day: number): string | null {
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > 30) return null;
  const julianDay =
    day +
    Math.ceil(29.5 * (month - 1)) +
    (year - 1) * 354 +
    Math.floor((3 + 11 * year) / 30) +
    1_948_439;
  // Julian day number 2,440,588 is 1970-01-01.
  return new Date((julianDay - 2_440_588) * 86_400_000).toISOString().slice(0, 10);
}

const SEASON_MONTH = [3, 6, 9, 12]; // spring, summer, autumn, winter
const QUARTER_MONTH = [1, 4, 7, 10];

function inferFormat(value: string): string {
  if (/^\d{8}T/.test(value)) return '14';
  if (/^\d{8}$/.test(value)) return '00';
  if (/^\d{6}$/.test(value)) return '01';
  if (/^\d{4}$/.test(value)) return '05';
  return '12';
}

/**
 * The first day of an ONIX date in the given format (the `dateformat` attribute or the
 * DateFormat element; inferred from the value's shape when neither is given), or null.
 */
export function onixDate(raw: string, format: string | null): string | null {
  const value = raw.trim();
  const code = format?.trim() || inferFormat(value);
  const n = (from: number, length: number) => Number(value.slice(from, from + length));
  const digits = (length: number) => new RegExp(`^\\d{${length}}$`).test(value);
  switch (code) {
    case '00':
      return digits(8) ? isoDay(n(0, 4), n(4, 2), n(6, 2)) : null;
    case '01':
      return digits(6) ? isoDay(n(0, 4), n(4, 2), 1) : null;
    case '02':
      return digits(6) ? isoWeekStart(n(0, 4), n(4, 2)) : null;
    case '03': {
      const quarter = QUARTER_MONTH[n(4, 1) - 1];
      return digits(5) && quarter ? isoDay(n(0, 4), quarter, 1) : null;
    }
    case '04': {
      const season = SEASON_MONTH[n(4, 1) - 1];
      return digits(5) && season ? isoDay(n(0, 4), season, 1) : null;
    }
    case '05':
      return digits(4) ? isoDay(n(0, 4), 1, 1) : null;
    // Ranges: the first half.
    case '06':
      return digits(16) ? onixDate(value.slice(0, 8), '00') : null;
    case '07':
      return digits(12) ? onixDate(value.slice(0, 6), '01') : null;
    case '08':
      return digits(12) ? onixDate(value.slice(0, 6), '02') : null;
    case '09':
      return digits(10) ? onixDate(value.slice(0, 5), '03') : null;
    case '10':
      return digits(10) ? onixDate(value.slice(0, 5), '04') : null;
    case '11':
      return digits(8) ? onixDate(value.slice(0, 4), '05') : null;
    case '12': {
      const parsed = Date.parse(value);
      return Number.isNaN(parsed) ? null : new Date(parsed).toISOString().slice(0, 10);
    }
    case '13':
    case '14':
      return /^\d{8}T\d{4}/.test(value) ? onixDate(value.slice(0, 8), '00') : null;
    case '20':
      return digits(8) ? hijriDay(n(0, 4), n(4, 2), n(6, 2)) : null;
    case '21':
      return digits(6) ? hijriDay(n(0, 4), n(4, 2), 1) : null;
    case '25':
      return digits(4) ? hijriDay(n(0, 4), 1, 1) : null;
    default:
      return null;
  }
}
