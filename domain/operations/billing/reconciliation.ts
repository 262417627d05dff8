/**
 * Issue 39, reconciliation: what was billed (net of credits) against what the billing rule
 * expects now (the students still charged) and, when the campus sent its paid file, what was
 * paid — every difference listed by student with its reason. Pure; the page asks it.
 */
export type ExpectedCharge = {
  sectionId: number;
  userId: number;
  campusId: string | null;
  name: string;
  courseCode: string;
  sectionLabel: string;
  cents: number;
};

export type BilledNet = {
  sectionId: number;
  userId: number;
  campusId: string;
  courseCode: string;
  sectionLabel: string;
  name: string;
  /** Charges plus credits (credits are negative). */
  cents: number;
};

export type Difference =
  | 'ops.billing.recon.reason.notBilled'
  | 'ops.billing.recon.reason.missingCampusId'
  | 'ops.billing.recon.reason.billedNotExpected'
  | 'ops.billing.recon.reason.amountDiffers'
  | 'ops.billing.recon.reason.paidDiffers'
  | 'ops.billing.recon.reason.paidUnknown';

export type ReconciliationRow = {
  /** The campus id (null: none on file). */
  campusId: string | null;
  name: string;
  /** 'BIO 101 001'; empty for a paid line of a student we never billed. */
  place: string;
  expectedCents: number;
  billedCents: number;
  paidCents: number | null;
  reason: Difference;
};

export type Reconciliation = {
  expectedCents: number;
  billedCents: number;
  paidCents: number | null;
  differences: ReconciliationRow[];
};

const pairKey = (sectionId: number, userId: number) => `${sectionId}:${userId}`;

export function reconcile(input: {
  expected: readonly ExpectedCharge[];
  billed: readonly BilledNet[];
  /** Paid per campus id, as the campus's file says; null when none was uploaded. */
  paid: ReadonlyMap<string, number> | null;
}): Reconciliation {
  const differences: ReconciliationRow[] = [];
  const billed = new Map(input.billed.map((b) => [pairKey(b.sectionId, b.userId), b]));
  const expected = new Map(input.expected.map((e) => [pairKey(e.sectionId, e.userId), e]));
  const place = (p: { courseCode: string; sectionLabel: string }) =>
    `${p.courseCode} ${p.sectionLabel}`.trim();

  for (const [key, want] of expected) {
    const got = billed.get(key)?.cents ?? 0;
    if (got === want.cents) continue;
    differences.push({
      campusId: want.campusId,
      name: want.name,
      place: place(want),
      expectedCents: want.cents,
      billedCents: got,
      paidCents: null,
      reason:
        got === 0
          ? want.campusId
            ? 'ops.billing.recon.reason.notBilled'
            : 'ops.billing.recon.reason.missingCampusId'
          : 'ops.billing.recon.reason.amountDiffers',
    });
  }
  for (const [key, got] of billed) {
    if (expected.has(key) || got.cents === 0) continue;
    differences.push({
      campusId: got.campusId,
      name: got.name,
      place: place(got),
      expectedCents: 0,
      billedCents: got.cents,
      paidCents: null,
      reason: 'ops.billing.recon.reason.billedNotExpected',
    });
  }

  // Paid is per student (the campus pays an account, not a section): billed net per campus id,
  // beside what the rule expects of that student and the sections it comes from.
  let paidCents: number | null = null;
  if (input.paid) {
    paidCents = 0;
    const byCampusId = new Map<
      string,
      {
        billed: boolean;
        billedCents: number;
        expectedCents: number;
        name: string;
        places: Set<string>;
      }
    >();
    const student = (campusId: string, name: string) => {
      const seen = byCampusId.get(campusId);
      if (seen) return seen;
      const fresh = {
        billed: false,
        billedCents: 0,
        expectedCents: 0,
        name,
        places: new Set<string>(),
      };
      byCampusId.set(campusId, fresh);
      return fresh;
    };
    for (const b of input.billed) {
      const s = student(b.campusId, b.name);
      s.billed = true;
      s.billedCents += b.cents;
      if (b.cents !== 0) s.places.add(place(b));
    }
    // A student is joined by user (the campus id billed may be older than the one on file now).
    const billedCampusIdOf = new Map(input.billed.map((b) => [b.userId, b.campusId]));
    for (const e of input.expected) {
      const campusId = billedCampusIdOf.get(e.userId) ?? e.campusId;
      if (!campusId) continue;
      const s = student(campusId, e.name);
      s.expectedCents += e.cents;
      s.places.add(place(e));
    }
    for (const cents of input.paid.values()) paidCents += cents;
    const campusIds = new Set([...byCampusId.keys(), ...input.paid.keys()]);
    for (const campusId of campusIds) {
      const owed = byCampusId.get(campusId);
      const paid = input.paid.get(campusId) ?? 0;
      if ((owed?.billedCents ?? 0) === paid) continue;
      differences.push({
        campusId,
        name: owed?.name ?? '',
        place: [...(owed?.places ?? [])].sort((a, b) => a.localeCompare(b, 'en')).join(', '),
        expectedCents: owed?.expectedCents ?? 0,
        billedCents: owed?.billedCents ?? 0,
        paidCents: paid,
        reason: owed?.billed
          ? 'ops.billing.recon.reason.paidDiffers'
          : 'ops.billing.recon.reason.paidUnknown',
      });
    }
  }

  differences.sort(
    (a, b) =>
      (a.campusId ?? '').localeCompare(b.campusId ?? '', 'en') ||
      a.place.localeCompare(b.place, 'en') ||
      a.reason.localeCompare(b.reason, 'en'),
  );
  return {
    expectedCents: input.expected.reduce((sum, e) => sum + e.cents, 0),
    billedCents: input.billed.reduce((sum, b) => sum + b.cents, 0),
    paidCents,
    differences,
  };
}
