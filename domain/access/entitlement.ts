// Who may open what (issue 14): the one rule behind every button that reads, launches or
// enters a material, and behind every route those buttons lead to (the reader, its files and
// downloads, the CDS routes, the courseware launch, the classroom). Spec 1 §4 (shelf button
// priority, course fee, courtesy access), §5, §6 (roles); spec 2 §4.
//
// Plain data in, a decision out: the service (entitlement-facts.ts) loads the facts, pages and
// routes ask it, and nothing else decides.
import { deadlineDay, isBeforeDeadline, type OptStatus } from '#domain/courses/opting.ts';
import { isActiveOwnership, type OwnershipWindow } from '#domain/shelf/ownership.ts';
import { materialsVisibleFrom } from '#domain/shelf/sections.ts';

/** What opening a material means, by its type (spec 1 §4 priority 1 labels). */
export type Entry = 'read' | 'launch' | 'enter' | 'open';

/** Through what the user holds it. */
export type Via =
  /** An ownership on their shelf: bought, redeemed, free, a sample, a course-fee acquisition. */
  | 'ownership'
  /** An owned collection that contains it. */
  | 'collection'
  /** The course fee of a section that lists it, while not opted out (spec 1 §4 Course fee). */
  | 'courseFee'
  /** The course fee of a CDS-enabled organisation's section: its course-delivery link. */
  | 'cds'
  /** Courtesy access: cdsEnabled off, auto-provisioning on, not opted out (spec 1 §5). */
  | 'courtesy'
  /** The professor or teaching assistant of a section that lists it. */
  | 'instructor';

export type EntitlementReason =
  | 'access.reason.notEntitled'
  | 'access.reason.notSignedIn'
  | 'access.reason.optedOut'
  | 'access.reason.optedOutClosed'
  | 'access.reason.termEnded'
  | 'access.reason.notStarted'
  | 'access.reason.revoked'
  | 'reading.error.expired'
  | 'access.reason.notOpenable';

export type Entitlement =
  | {
      ok: true;
      entry: Entry;
      via: Via;
      /** Access ends then (null: no end). */
      until: Date | null;
      /** The section it comes through, for course paths (null for ownership). */
      sectionId: number | null;
      /** The member row of that section (the CDS routes name it). */
      memberId: number | null;
    }
  | {
      ok: false;
      reason: EntitlementReason;
      /** Values for the message: {date}, {deadline} as YYYY-MM-DD. */
      params: Record<string, string>;
      /** The way back where there is one: opting back in on the course page, or buying. */
      wayBack: { kind: 'optBackIn'; sectionId: number } | { kind: 'buy' } | null;
    };

export type EntitlementOwnership = OwnershipWindow & {
  /** The collection this ownership is of, when it is of a collection containing the product. */
  viaCollection?: boolean;
};

export type EntitlementMembership = {
  sectionId: number;
  memberId: number;
  role: string;
  optStatus: OptStatus;
  isCourseFee: boolean;
  /** The member's add/drop date: the opting deadline (spec 2 §4). */
  addDropDate: Date;
  /**
   * The course's time zone, in which the deadline's day is said, as the banner says it: always
   * given, so that no page falls back to UTC's date of the same instant (issue 38).
   */
  timeZone: string;
  /** Calendar days of the section, YYYY-MM-DD. */
  startDate: string;
  endDate: string;
  disableAutoProvisioning: boolean;
  org: { isCdsEnabled: boolean };
};

export type EntitlementInput = {
  signedIn: boolean;
  product: {
    productType: string;
    /** Deleted products open for nobody; withdrawn ones stay open for their owners. */
    status: string;
    /** A physical copy (isPhysicalCopy): no course opens it, the student buys it. */
    physical: boolean;
  };
  /** The user's ownerships of the product, and of collections containing it. */
  ownerships: readonly EntitlementOwnership[];
  /** The user's memberships of sections that list the product (either version of a choice). */
  memberships: readonly EntitlementMembership[];
  /** The section a route or button names (course_id, coursemember_id), if any. */
  through?: { sectionId?: number | null; memberId?: number | null };
  now: Date;
};

const DAY_MS = 86_400_000;
const INSTRUCTOR_ROLES = new Set(['professor', 'teaching_assistant']);
const day = (date: Date) => date.toISOString().slice(0, 10);

/** How a material of this type is opened, or null when it cannot be (a physical product). */
export function entryOf(productType: string): Entry | null {
  switch (productType) {
    case 'book':
    case 'ebundle':
      return 'read';
    case 'courseware':
      return 'launch';
    case 'classroom':
      return 'enter';
    case 'collection':
      return 'open';
    default:
      return null;
  }
}

/**
 * A physical copy rather than digital access: a physical product, or a title sold only as
 * print or physical offerings (the print version of a physical/digital choice). Spec 1 §4
 * Course fee: "Digital gives Start Reading … Physical gives Add To Cart or View Cart": a
 * course lists it, but opens nothing of it.
 */
export function isPhysicalCopy(productType: string, offeringTypes: readonly string[]): boolean {
  if (productType === 'physical_product') return true;
  return offeringTypes.length > 0 && offeringTypes.every((t) => t !== 'digital' && t !== 'combo');
}

/** Access through a section lasts from two weeks before class to the end of its last day. */
function courseWindow(member: EntitlementMembership): { from: Date; until: Date } {
  return {
    from: new Date(`${materialsVisibleFrom(member.startDate)}T00:00:00Z`),
    until: new Date(Date.parse(`${member.endDate}T00:00:00Z`) + DAY_MS),
  };
}

/** What the section gives this member, ignoring its dates; null when nothing. */
function courseVia(member: EntitlementMembership): Via | null {
  if (INSTRUCTOR_ROLES.has(member.role)) return 'instructor';
  // spec 1 §6: opted-out students are blocked from reading via inclusive access.
  if (member.optStatus === 'opted_out') return null;
  // spec 1 §4: the course fee's Start Reading launches the course-delivery link: a CDS
  // organisation's own (/cds_book_read/), or the reader through the course elsewhere.
  if (member.isCourseFee) return member.org.isCdsEnabled ? 'cds' : 'courseFee';
  // spec 1 §5: courtesy access when cdsEnabled is off, auto-provisioning is not disabled and
  // the member is not opted out. Otherwise (CDS, auto-provisioning disabled) offerings show
  // and the student buys.
  if (!member.org.isCdsEnabled && !member.disableAutoProvisioning) return 'courtesy';
  return null;
}

const COURSE_PRIORITY: Via[] = ['cds', 'courseFee', 'courtesy', 'instructor'];

/**
 * Whether the user may open the product now, through what, until when; or why not, with the
 * way back. Ownership wins over the course (it outlives the term); among sections, the one
 * the route names, then the course fee, CDS, courtesy access, instructors.
 */
export function entitlement(input: EntitlementInput): Entitlement {
  const refuse = (
    reason: EntitlementReason,
    params: Record<string, string> = {},
    wayBack: Extract<Entitlement, { ok: false }>['wayBack'] = null,
  ): Entitlement => ({ ok: false, reason, params, wayBack });
  if (!input.signedIn) return refuse('access.reason.notSignedIn');
  const entry = entryOf(input.product.productType);
  if (entry === null || input.product.status === 'deleted') {
    return refuse('access.reason.notOpenable');
  }
  // A course opens the digital version only; its members buy the physical one.
  const course = input.product.physical ? { ...input, memberships: [] } : input;
  // Rights only: whether a book has a file to read is the reader's to say, to those it lets in.
  return grant(course, entry) ?? refusal(course, refuse);
}

function grant(input: EntitlementInput, entry: Entry): Entitlement | null {
  const { now } = input;
  const named = input.through?.memberId;
  // A route that names a membership (the CDS link) names one of the user's own, or opens
  // nothing: not even an owner may carry someone else's member id along.
  if (named != null && !input.memberships.some((m) => m.memberId === named)) return null;
  const active = input.ownerships.filter((o) => isActiveOwnership(o, now));
  if (active.length > 0) {
    const ends = active.map((o) => o.expiresAt);
    const until = ends.includes(null) ? null : new Date(Math.max(...ends.map((e) => e!.getTime())));
    const direct = active.some((o) => !o.viaCollection);
    return {
      ok: true,
      entry,
      via: direct ? 'ownership' : 'collection',
      until,
      sectionId: null,
      memberId: null,
    };
  }
  const through = input.through ?? {};
  const candidates = input.memberships
    .map((member) => ({ member, via: courseVia(member), window: courseWindow(member) }))
    .filter(
      (c): c is typeof c & { via: Via } =>
        c.via !== null && c.window.from <= now && now < c.window.until,
    )
    // The CDS routes name the member: only that membership counts there.
    .filter((c) => through.memberId == null || c.member.memberId === through.memberId)
    .sort(
      (a, b) =>
        Number(b.member.sectionId === through.sectionId) -
          Number(a.member.sectionId === through.sectionId) ||
        COURSE_PRIORITY.indexOf(a.via) - COURSE_PRIORITY.indexOf(b.via),
    );
  const best = candidates[0];
  if (!best) return null;
  return {
    ok: true,
    entry,
    via: best.via,
    until: best.window.until,
    sectionId: best.member.sectionId,
    memberId: best.member.memberId,
  };
}

/** Why not, most specific first: what the user did or what ended, before "not yours". */
function refusal(
  input: EntitlementInput,
  refuse: (
    reason: EntitlementReason,
    params?: Record<string, string>,
    wayBack?: Extract<Entitlement, { ok: false }>['wayBack'],
  ) => Entitlement,
): Entitlement {
  const { now } = input;
  const optedOut = input.memberships.find(
    (m) => m.optStatus === 'opted_out' && !INSTRUCTOR_ROLES.has(m.role),
  );
  if (optedOut) {
    return isBeforeDeadline(optedOut.addDropDate, now)
      ? refuse(
          'access.reason.optedOut',
          { deadline: deadlineDay(optedOut.addDropDate, optedOut.timeZone) },
          { kind: 'optBackIn', sectionId: optedOut.sectionId },
        )
      : refuse('access.reason.optedOutClosed', {}, { kind: 'buy' });
  }
  const course = input.memberships.filter((m) => courseVia(m) !== null);
  const ended = course.find((m) => courseWindow(m).until <= now);
  if (ended) return refuse('access.reason.termEnded', { date: ended.endDate }, { kind: 'buy' });
  const early = course.find((m) => now < courseWindow(m).from);
  if (early) {
    return refuse('access.reason.notStarted', { date: materialsVisibleFrom(early.startDate) });
  }
  const expired = input.ownerships
    .filter((o) => o.revokedAt === null && o.expiresAt !== null && o.expiresAt <= now)
    .map((o) => o.expiresAt!.getTime());
  if (expired.length > 0) {
    return refuse(
      'reading.error.expired',
      { date: day(new Date(Math.max(...expired))) },
      {
        kind: 'buy',
      },
    );
  }
  if (input.ownerships.some((o) => o.revokedAt !== null && o.revokedAt <= now)) {
    return refuse('access.reason.revoked', {}, { kind: 'buy' });
  }
  return refuse('access.reason.notEntitled');
}
