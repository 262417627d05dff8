// The academic term a course section belongs to (issue 19, Find by course). Rosters do not
// bring academic sessions yet, so the term is derived from the section's start date, the way
// North American campuses name their terms: a section starting from August to December is in
// the fall term, January to May in winter/spring, June and July in summer.

export type TermSeason = 'winter-spring' | 'summer' | 'fall';

export type AcademicTerm = {
  /** Stable, readable id for URLs: '2026-fall', '2027-winter-spring', '2026-summer'. */
  key: string;
  season: TermSeason;
  year: number;
};

const SEASONS: readonly TermSeason[] = ['winter-spring', 'summer', 'fall'];

/** First and last month (1-12) of each season's start dates. */
const MONTHS: Record<TermSeason, { first: number; last: number }> = {
  'winter-spring': { first: 1, last: 5 },
  summer: { first: 6, last: 7 },
  fall: { first: 8, last: 12 },
};

const term = (year: number, season: TermSeason): AcademicTerm => ({
  key: `${year}-${season}`,
  season,
  year,
});

/** The term of a section that starts on this calendar day (YYYY-MM-DD). */
export function academicTermOf(startDate: string): AcademicTerm {
  const year = Number(startDate.slice(0, 4));
  const month = Number(startDate.slice(5, 7));
  const season = SEASONS.find((s) => month >= MONTHS[s].first && month <= MONTHS[s].last);
  return term(year, season ?? 'fall');
}

const KEY = /^([1-9]\d{3})-(winter-spring|summer|fall)$/;

/** A term named in a URL, or null when the text is not a term key. */
export function parseTermKey(raw: string | null | undefined): AcademicTerm | null {
  const match = KEY.exec(raw ?? '');
  if (!match) return null;
  return term(Number(match[1]), match[2] as TermSeason);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The start dates a term holds, both ends included (YYYY-MM-DD, compared as text). */
export function termDateRange(t: AcademicTerm): { from: string; to: string } {
  const { first, last } = MONTHS[t.season];
  const lastDay = new Date(Date.UTC(t.year, last, 0)).getUTCDate();
  return { from: `${t.year}-${pad(first)}-01`, to: `${t.year}-${pad(last)}-${pad(lastDay)}` };
}

/** Latest term first. */
export function compareTerms(a: AcademicTerm, b: AcademicTerm): number {
  return b.year - a.year || SEASONS.indexOf(b.season) - SEASONS.indexOf(a.season);
}
