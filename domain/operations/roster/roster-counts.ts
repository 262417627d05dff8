// Issue 39: how an import's report counts records (a page renders these, so no server code here).

export const RECORD_KINDS = ['term', 'course', 'class', 'user', 'role', 'enrollment'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];
export const OUTCOMES = ['created', 'updated', 'ended', 'unchanged', 'refused', 'ignored'] as const;
export type Outcome = (typeof OUTCOMES)[number];
export type RosterCounts = Record<RecordKind, Record<Outcome, number>>;
