import { courseFeeChargeCents } from '#domain/courses/course-fee-billing.ts';
import {
  deadlineDay,
  isBeforeDeadline,
  type OptStatus,
  optingEligibility,
} from '#domain/courses/opting.ts';

// Issue 39, the term at a glance (Inclusive Dashboard, Campus Insights): how a term's sections
// stand — students, opted in, opted out, not yet decided, days to the deadline, expected
// billing. Plain rules of plain data; the service counts members in SQL by the facts below and
// these decide what each count means.

/** Where a student stands: the three are exclusive and together are all the section's students. */
export type Standing = 'optedIn' | 'optedOut' | 'undecided';

/** The facts of one student (or of a group of students sharing them) that decide their standing. */
export type StandingFacts = {
  optStatus: OptStatus;
  canUpdateOptStatus: boolean;
  /** The student's own opting deadline (section_members.addDropDate) is still ahead. */
  beforeDeadline: boolean;
  /** The student made an opt change of their own (opt_changes.actorUserId is the student). */
  choseThemself: boolean;
};

export type StandingSection = { optingMethod: string; disableAutoProvisioning: boolean };

/**
 * "Not yet decided" (issue 39): a student who may still opt out (opting.ts `optingEligibility`:
 * an opt-out section with auto-provisioning, the student allowed to change, before their
 * deadline), is opted in by default and has made no opt change of their own. A change made by
 * staff for them is not their decision. After the deadline nobody is undecided: whoever is
 * opted in then is billed.
 */
export function standingOf(student: StandingFacts, section: StandingSection): Standing {
  if (student.optStatus === 'opted_out') return 'optedOut';
  const mayStillOpt =
    student.beforeDeadline &&
    optingEligibility(
      {
        role: 'student',
        optStatus: student.optStatus,
        canUpdateOptStatus: student.canUpdateOptStatus,
        addDropDate: new Date(0),
      },
      section,
    );
  return mayStillOpt && !student.choseThemself ? 'undecided' : 'optedIn';
}

/**
 * Whole calendar days from today to the deadline's day, both read in the section's time zone
 * (issue 39: "days to the deadline"), so a clock change in between neither adds nor loses a
 * day; 0 on the deadline's own day; null once the deadline has passed ("Deadline passed").
 */
export function daysToDeadline(deadline: Date, now: Date, timeZone: string): number | null {
  if (!isBeforeDeadline(deadline, now)) return null;
  const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;
  return dayNumber(deadlineDay(deadline, timeZone)) - dayNumber(deadlineDay(now, timeZone));
}

/** One section of the term, as the service loads it. */
export type DashboardSection = StandingSection & {
  id: number;
  department: string;
  courseNumber: string;
  courseCode: string | null;
  courseType: string;
  sectionNumber: string | null;
  name: string;
  addDropAt: Date;
  timeZone: string;
  courseFeeCents: number | null;
};

/** How many of a section's students share these facts. */
export type StudentGroup = StandingFacts & { sectionId: number; count: number };

export type Figures = {
  students: number;
  optedIn: number;
  optedOut: number;
  undecided: number;
  /** The course fees billed if nobody changes again (course-fee-billing.ts), integer cents. */
  expectedBillingCents: number;
};

export type SectionFigures = Figures & {
  section: DashboardSection;
  daysToDeadline: number | null;
};

const noFigures = (): Figures => ({
  students: 0,
  optedIn: 0,
  optedOut: 0,
  undecided: 0,
  expectedBillingCents: 0,
});

function add(into: Figures, more: Figures): Figures {
  into.students += more.students;
  into.optedIn += more.optedIn;
  into.optedOut += more.optedOut;
  into.undecided += more.undecided;
  into.expectedBillingCents += more.expectedBillingCents;
  return into;
}

/**
 * Each section's figures from its groups of students. Expected billing asks the one billing
 * rule (`courseFeeChargeCents`): the undecided are opted in, so they are in it too.
 */
export function sectionFigures(
  sections: readonly DashboardSection[],
  groups: readonly StudentGroup[],
  now: Date,
): SectionFigures[] {
  const bySection = new Map<number, Figures>(sections.map((s) => [s.id, noFigures()]));
  const sectionById = new Map(sections.map((s) => [s.id, s]));
  for (const group of groups) {
    const section = sectionById.get(group.sectionId);
    const figures = bySection.get(group.sectionId);
    if (!section || !figures) continue;
    const standing = standingOf(group, section);
    const charge = courseFeeChargeCents({
      role: 'student',
      optStatus: group.optStatus,
      courseFeeCents: section.courseFeeCents,
    });
    figures.students += group.count;
    figures[standing] += group.count;
    figures.expectedBillingCents += (charge ?? 0) * group.count;
  }
  return sections.map((section) => ({
    ...(bySection.get(section.id) ?? noFigures()),
    section,
    daysToDeadline: daysToDeadline(section.addDropAt, now, section.timeZone),
  }));
}

/** The term's totals: the sum of its sections' figures. */
export function totalFigures(rows: readonly Figures[]): Figures {
  return rows.reduce((total, row) => add(total, row), noFigures());
}

export type DepartmentFigures = Figures & { department: string; sections: number };

/** Campus Insights: the same figures grouped by department, departments in code order. */
export function departmentFigures(rows: readonly SectionFigures[]): DepartmentFigures[] {
  const byDepartment = new Map<string, DepartmentFigures>();
  for (const row of rows) {
    const department = row.section.department;
    const into = byDepartment.get(department) ?? { ...noFigures(), department, sections: 0 };
    add(into, row);
    into.sections += 1;
    byDepartment.set(department, into);
  }
  return [...byDepartment.values()].sort((a, b) => a.department.localeCompare(b.department));
}

/** Share of the students opted in (decided or by default), as a whole percentage; null when none. */
export function adoptionPercent(figures: Figures): number | null {
  if (figures.students === 0) return null;
  return Math.round(((figures.optedIn + figures.undecided) * 100) / figures.students);
}

/** One day of opting events: opt changes to opted out and back to opted in. */
export type OptDay = { day: string; optOuts: number; optIns: number };

export type OptOutPoint = OptDay & { runningTotal: number };

/**
 * The chart of opt-outs over time (issue 39): by day, the running total of opt-outs less the
 * opt-backs-in since the term's first opting event. Days come in any order; they leave in order.
 */
export function optOutSeries(days: readonly OptDay[]): OptOutPoint[] {
  let runningTotal = 0;
  return [...days]
    .sort((a, b) => a.day.localeCompare(b.day))
    .map((day) => {
      runningTotal += day.optOuts - day.optIns;
      return { ...day, runningTotal };
    });
}

/** A term as the selector lists it. */
export type TermChoice = {
  id: number;
  title: string;
  startDate: string;
  endDate: string;
};

const spanDays = (t: TermChoice) => Date.parse(t.endDate) - Date.parse(t.startDate);

/**
 * The term shown when none is asked for: the one running today (the shortest, so a semester
 * before its school year), else the next to start, else the latest that ended. `today` is
 * the viewer's calendar day, YYYY-MM-DD.
 */
export function defaultTerm<T extends TermChoice>(terms: readonly T[], today: string): T | null {
  const running = terms
    .filter((t) => t.startDate <= today && today <= t.endDate)
    .sort((a, b) => spanDays(a) - spanDays(b) || b.startDate.localeCompare(a.startDate));
  if (running[0]) return running[0];
  const upcoming = terms
    .filter((t) => t.startDate > today)
    .sort((a, b) => a.startDate.localeCompare(b.startDate));
  if (upcoming[0]) return upcoming[0];
  const past = [...terms].sort((a, b) => b.endDate.localeCompare(a.endDate));
  return past[0] ?? null;
}
