// The calendar day and wall clock of an instant in a time zone, asked of Intl once per zone:
// building an Intl.DateTimeFormat costs far more than formatting with one (the term dashboard
// spent a third of its time building them, one per section and standing: docs/benchmarks.md).

const dayFormats = new Map<string, Intl.DateTimeFormat>();
const clockFormats = new Map<string, Intl.DateTimeFormat>();

function cached(
  formats: Map<string, Intl.DateTimeFormat>,
  timeZone: string,
  make: () => Intl.DateTimeFormat,
): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    // Throws a RangeError for an unknown zone, as `new Intl.DateTimeFormat` does.
    format = make();
    formats.set(timeZone, format);
  }
  return format;
}

/** The day an instant falls on in a time zone, YYYY-MM-DD. */
export function dayIn(instant: Date, timeZone: string): string {
  return cached(
    dayFormats,
    timeZone,
    () =>
      new Intl.DateTimeFormat('en-CA', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      }),
  ).format(instant);
}

/** The zone's wall clock at this instant, as if it were UTC (milliseconds, whole seconds). */
export function wallClockMs(instant: Date, timeZone: string): number {
  const parts = cached(
    clockFormats,
    timeZone,
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      }),
  ).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
}
