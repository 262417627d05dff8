import { courseCodeLabel } from '#domain/courses/course-code.ts';

// Course sections on My Shelf (spec 1 §2 Shelf, §4 Section ordering; spec 2 §2).

export type TermFilter = 'current' | 'past' | 'all';
export const TERM_FILTERS: readonly TermFilter[] = ['current', 'past', 'all'];
export const DEFAULT_TERM: TermFilter = 'current';

/** Dates are calendar days, YYYY-MM-DD, compared as text (ISO order is date order). */
export type SectionDates = { startDate: string; endDate: string };

export type SectionTerm = 'current' | 'upcoming' | 'past';

/** Started and not ended is current; not started is upcoming; ended is past. */
export function sectionTerm(section: SectionDates, today: string): SectionTerm {
  if (section.endDate < today) return 'past';
  if (section.startDate > today) return 'upcoming';
  return 'current';
}

const ORDER: Record<TermFilter, SectionTerm[]> = {
  // Current shows sections started and not ended, then future ones.
  current: ['current', 'upcoming'],
  past: ['past'],
  // All shows current, upcoming, then past.
  all: ['current', 'upcoming', 'past'],
};

/** The sections a term filter shows, in the spec's order (by start date within a group). */
export function sectionsFor<T extends SectionDates>(
  sections: readonly T[],
  filter: TermFilter,
  today: string,
): T[] {
  return ORDER[filter].flatMap((term) =>
    sections
      .filter((section) => sectionTerm(section, today) === term)
      .sort((a, b) => a.startDate.localeCompare(b.startDate)),
  );
}

/** Only sections ending today or later are offered for course selection (spec 1 §2). */
export function selectableSections<T extends SectionDates>(
  sections: readonly T[],
  today: string,
): T[] {
  return sections.filter((section) => section.endDate >= today);
}

/** The term filter named in a query, or the default. */
export function termFilterOf(raw: string | null): TermFilter {
  return TERM_FILTERS.includes(raw as TermFilter) ? (raw as TermFilter) : DEFAULT_TERM;
}

/**
 * A section's title: the course's code (the campus's own when a roster made the course, else
 * department and number), plus ': Section {number}' when numbered.
 */
export function sectionTitle(input: {
  department: string;
  courseNumber: string;
  courseCode?: string | null;
  sectionNumber: string | null;
}): { course: string; section: string | null } {
  return {
    course: courseCodeLabel({
      department: input.department,
      number: input.courseNumber,
      code: input.courseCode,
    }),
    section: input.sectionNumber?.trim() ? input.sectionNumber.trim() : null,
  };
}

const TWO_WEEKS_MS = 1_209_600_000;

/** Materials appear two weeks before class starts (spec 2 §9): the day to check back. */
export function materialsVisibleFrom(startDate: string): string {
  const start = Date.parse(`${startDate}T00:00:00Z`);
  return new Date(start - TWO_WEEKS_MS).toISOString().slice(0, 10);
}

/** Today as YYYY-MM-DD in a time zone. */
export { dayIn } from '#domain/shared/calendar.ts';
