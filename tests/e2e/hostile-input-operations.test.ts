import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '#db/client.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import { auditActorOf } from '#domain/operations/audit.ts';
import { finaliseBillingRun, termBilling } from '#domain/operations/billing/billing-service.ts';
import { MAX_BILLING_COLUMNS } from '#domain/operations/billing/charge-file.ts';
import { orgScopeOf } from '#domain/operations/staff-scope.ts';
import { testContext } from '#tests/database.ts';
import { makeBillingTerm } from './billing-fixture.ts';
import {
  type Attempt,
  attemptOf,
  attemptsOf,
  baseUrl,
  type Call,
  changedTables,
  check,
  checkAll,
  cookieHeader,
  type Depth,
  type Field,
  FOREIGN_ORIGIN,
  FORM,
  type HostileServer,
  type Locale,
  languageProblem,
  logIn,
  type Role,
  type SnapshotRules,
  snapshot,
  startHostileServer,
  stillAnswers,
  visit,
} from './hostile-harness.ts';

// Issue 39, "Bad input": every form and upload of the campus tools (Course Manager and Course
// Admin, roster import, the term dashboards, bursar billing, refunds, the help desk and Switch
// Account) gets issue 18's hostile-input treatment, as the staff who may open each and as
// people who may not: each hostile value in each field and path or query parameter, another
// campus's ids (Lakeshore's for Riverbend's staff and the other way round), the CSRF variants
// and oversize uploads. Each answer: no 5xx, in the language asked for, nothing of the other
// campus shown; after each call, nothing changed in the database (audit_events included).

const ROLE_EMAILS = {
  anonymous: null,
  student: 'student@demo.test',
  coursemanager: 'coursemanager@demo.test',
  bookstore: 'bookstore@demo.test',
  lakeshore: 'lakeshore@demo.test',
  support: 'support@demo.test',
  manager: 'manager@demo.test',
} as const;
type RoleName = keyof typeof ROLE_EMAILS;
const ROLE_NAMES = Object.keys(ROLE_EMAILS) as RoleName[];
type Staff = Role & { name: RoleName };

/** Who may open each tool (web/manage/require-tool.server.ts, domain/accounts/navigation.ts). */
const COURSE_STAFF: RoleName[] = ['coursemanager', 'bookstore', 'lakeshore', 'manager'];
const HELP_DESK: RoleName[] = ['coursemanager', 'bookstore', 'lakeshore', 'support', 'manager'];
const CAMPUS_FIGURES: RoleName[] = ['bookstore', 'lakeshore', 'manager'];
/** The demo accounts with hasAccessToClaimCodeChecker (db/seed/accounts.ts). */
const CLAIM_CODE_CHECKER: RoleName[] = ['manager'];
/** Managers who post (isPostingEnabled): the demo manager. */
const MY_INVENTORY: RoleName[] = ['manager'];
const PARTNER_HOST = 'partner.localhost';

const RULES: SnapshotRules = {
  excluded: {
    analytics_events: 'events recorded for every report',
    login_attempts: 'login throttle',
    redeem_attempts: 'redeem throttle',
    claim_code_checks: 'claim code checker throttle (each check is kept)',
    book_file_metrics: 'cache',
    account_mail_requests: 'mailed-link throttle',
  },
  columns: {
    sessions: 'id_hash, user_id, impersonator_id, created_at',
    outbox: 'id, kind, dedupe_key, payload',
    payments:
      'id, order_id, gateway, gateway_ref, status, amount_cents, currency_code, failure, is_wallet, card_brand, card_last4, created_at',
    orders:
      'id, user_id, status, idempotency_key, course_section_id, subtotal_cents, fee_cents, total_cents, currency_code, shipping_address, created_at, paid_at',
  },
  where: {},
};

/** One campus's objects, made in the setup by its own bookstore manager. */
type Campus = {
  orgId: number;
  title: string;
  termId: number;
  courseId: number;
  sectionId: number;
  memberId: number;
  adoptionId: number;
  billingTermId: number;
  runId: number;
  chargeId: number;
  importId: number;
  /** A student of this campus only, for its help desk. */
  personId: number;
  /** A student of this campus not yet in the section, to add. */
  spareEmail: string;
  /** A product to adopt. */
  productId: number;
  /** Words only this campus's pages show: no other campus's staff may see them. */
  secrets: string[];
};

type World = {
  roles: Record<RoleName, Staff>;
  riverbend: Campus;
  lakeshore: Campus;
  /** The demo's paid order (Northfield's student): support and managers may refund it. */
  order: { id: string; itemIds: number[] };
  /** A Northfield student: in nobody's campus scope but the manager's and support's. */
  northfieldPersonId: number;
};

let server: HostileServer;
let world: World;
/** A print offering with counted stock, for My Inventory's forms, and its version. */
let countedOfferingId: number;
let countedVersion: string;
let files: string;

const db = () => server.app.database.db;

beforeAll(async () => {
  server = await startHostileServer({ UPLOAD_LIMIT_BYTES: String(2_000_000) });
  files = mkdtempSync(path.join(tmpdir(), 'shelfmark-hostile-ops-'));
  world = await buildWorld();
  countedOfferingId = await countedOffering();
  const [row] = await queryRows<{ version: string }>(
    db(),
    sql`select xmin::text as version from offerings where id = ${countedOfferingId}`,
  );
  countedVersion = row!.version;
}, 180_000);

afterAll(async () => {
  await server?.close();
  if (files) rmSync(files, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// The world.

async function post(role: Role, target: string, form: Record<string, string | number>) {
  const body = new URLSearchParams({ csrfmiddlewaretoken: role.token });
  for (const [name, value] of Object.entries(form)) body.set(name, String(value));
  return fetch(`${baseUrl()}${target}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: cookieHeader(role.cookies), 'content-type': FORM },
    body: body.toString(),
  });
}

/** A print offering of its own with 500 counted units (My Inventory). */
async function countedOffering(): Promise<number> {
  const [product] = await queryRows<{ id: number }>(
    db(),
    sql`insert into products (product_type, title, slug)
        values ('book', 'Hostile inventory copy', 'hostile-inventory-copy') returning id`,
  );
  const [offering] = await queryRows<{ id: number }>(
    db(),
    sql`insert into offerings (product_id, type, book_type, price_cents, stock)
        values (${product!.id}, 'physical', 'print', 4500, 500) returning id`,
  );
  return offering!.id;
}

/** The id a form's redirect names (…/terms/12?done=…). */
async function madeId(response: Response, what: string): Promise<number> {
  const errors = (await response.clone().text()).match(/field__error[^<]*<|role="alert">[^<]*/g);
  expect(response.status, `${what}: ${errors}`).toBe(302);
  const id = /\/(\d+)(?:\?|$)/.exec(response.headers.get('location') ?? '')?.[1];
  expect(id, what).toBeDefined();
  return Number(id);
}

const SECTION_FORM = {
  name: 'Hostile section',
  number: '001',
  startDate: '2027-01-11',
  endDate: '2027-04-30',
  timeZone: 'America/Toronto',
  optOutDate: '2027-01-25',
  optOutTime: '23:59',
  dropDate: '',
  dropTime: '',
  optingMethod: 'opt-out',
  fee: '79.00',
  sectionCode: '',
};

async function buildCampus(staff: Staff, label: string): Promise<Campus> {
  const [{ orgId }] = (await queryRows<{ orgId: number }>(
    db(),
    sql`select org_id as "orgId" from users where id = ${staff.userId}`,
  )) as [{ orgId: number }];
  const termTitle = `Hostile term ${label}`;
  const courseName = `Hostile course ${label}`;
  const termId = await madeId(
    await post(staff, '/manage/course-manager', {
      title: termTitle,
      termType: 'semester',
      startDate: '2027-01-04',
      endDate: '2027-05-30',
    }),
    `${label} makes a term`,
  );
  const courseId = await madeId(
    await post(staff, '/manage/course-manager/courses', {
      name: courseName,
      department: 'HOS',
      number: `1${orgId}1`,
      courseType: 'inclusive_access',
    }),
    `${label} makes a course`,
  );
  const sectionId = await madeId(
    await post(staff, `/manage/course-manager/courses/${courseId}/new-section`, {
      ...SECTION_FORM,
      termId,
    }),
    `${label} makes a section`,
  );
  // Students of this organisation only: in no section or campus list of another.
  const people = await queryRows<{ id: number; email: string }>(
    db(),
    sql`select u.id, u.email from users u
        where u.org_id = ${orgId} and u.email like '%@students.demo.test'
          and not exists (
            select 1 from section_members m join course_sections s on s.id = m.section_id
            join courses c on c.id = s.course_id where m.user_id = u.id and c.org_id <> ${orgId})
          and not exists (select 1 from campus_people p where p.user_id = u.id and p.org_id <> ${orgId})
        order by u.id limit 3`,
  );
  expect(people.length, `${label} has three students`).toBe(3);
  const sectionPage = `/manage/course-manager/sections/${sectionId}`;
  const added = await post(staff, sectionPage, {
    intent: 'member-add',
    email: people[0]!.email,
    role: 'student',
  });
  expect(added.status, `${label} adds a member`).toBe(302);
  const [member] = await queryRows<{ id: number }>(
    db(),
    sql`select id from section_members where section_id = ${sectionId} and user_id = ${people[0]!.id}`,
  );
  const products = await queryRows<{ id: number }>(
    db(),
    sql`select p.id from products p where p.status = 'active' and not p.is_disabled
        and p.product_type = 'book' order by p.id limit 2`,
  );
  const adopted = await post(staff, sectionPage, {
    intent: 'material-add',
    reference: String(products[0]!.id),
    required: 'required',
  });
  expect(adopted.status, `${label} adopts a material`).toBe(302);
  const [adoption] = await queryRows<{ id: number }>(
    db(),
    sql`select id from section_products where section_id = ${sectionId} order by id desc limit 1`,
  );

  // A billing term with a run made: its run, a charge of it.
  const billing = await makeBillingTerm(db(), staff.email!);
  const user = await loadSessionUser(db(), { userId: staff.userId!, impersonatorId: null });
  const rc = testContext(db(), { user });
  const scope = orgScopeOf(user!);
  const preview = await termBilling(rc, scope, billing.termId);
  const run = await finaliseBillingRun(rc, scope, auditActorOf(user!), {
    termId: billing.termId,
    fingerprint: preview.preview.fingerprint,
    describe: () => 'Hostile charge',
  });
  expect(run.kind, `${label} bills a run`).toBe('final');
  const runId = run.kind === 'final' ? run.runId : 0;
  const [charge] = await queryRows<{ id: number }>(
    db(),
    sql`select id from billing_charges where run_id = ${runId} and kind = 'charge' order by id limit 1`,
  );
  // A dry run waiting to be applied (its package is never read: nothing applies it here).
  const [roster] = await queryRows<{ id: number }>(
    db(),
    sql`insert into roster_imports
          (org_id, status, dry_run, source, file_name, storage_path, bytes, started_by, actor,
           finished_at)
        values (${orgId}, 'previewed', true, 'page', 'hostile.zip', 'roster-imports/none.zip', 10,
          ${staff.userId}, ${JSON.stringify({ userId: staff.userId, actingAsUserId: null, label })}::jsonb,
          now())
        returning id`,
  );
  return {
    orgId,
    title: label,
    termId,
    courseId,
    sectionId,
    memberId: member!.id,
    adoptionId: adoption!.id,
    billingTermId: billing.termId,
    runId,
    chargeId: charge!.id,
    importId: roster!.id,
    personId: people[1]!.id,
    spareEmail: people[2]!.email,
    productId: products[1]!.id,
    secrets: [termTitle, courseName, billing.title],
  };
}

async function buildWorld(): Promise<World> {
  const roles = {} as Record<RoleName, Staff>;
  for (const name of ROLE_NAMES) {
    const email = ROLE_EMAILS[name];
    const session = email ? await logIn(email) : await visit();
    const [user] = email
      ? await queryRows<{ id: number }>(db(), sql`select id from users where email = ${email}`)
      : [];
    roles[name] = { ...session, name, email, userId: user?.id ?? null };
  }
  const riverbend = await buildCampus(roles.bookstore, 'Riverbend');
  const lakeshore = await buildCampus(roles.lakeshore, 'Lakeshore');
  const [order] = await queryRows<{ id: string }>(
    db(),
    sql`select id::text as id from orders where status = 'paid' order by created_at limit 1`,
  );
  const items = await queryRows<{ id: number }>(
    db(),
    sql`select id from order_items where order_id = ${order!.id}::uuid order by id`,
  );
  const [northfield] = await queryRows<{ id: number }>(
    db(),
    sql`select u.id from users u where u.org_id = 1 and u.email like '%@students.demo.test'
          and not exists (
            select 1 from section_members m join course_sections s on s.id = m.section_id
            join courses c on c.id = s.course_id where m.user_id = u.id and c.org_id <> 1)
        order by u.id limit 1`,
  );
  return {
    roles,
    riverbend,
    lakeshore,
    order: { id: order!.id, itemIds: items.map((i) => i.id) },
    northfieldPersonId: northfield!.id,
  };
}

// ---------------------------------------------------------------------------------------------
// Whose objects are whose.

/** The campus whose objects a role's valid request names (Riverbend's for the store-wide). */
function own(role: Staff): Campus {
  return role.name === 'lakeshore' ? world.lakeshore : world.riverbend;
}
/** Another campus's objects, for a role of one campus (a manager's scope is every campus). */
function theirs(role: Staff): Campus[] {
  if (role.name === 'manager' || role.name === 'support') return [];
  return [role.name === 'lakeshore' ? world.riverbend : world.lakeshore];
}
const others =
  (pick: (campus: Campus) => number) =>
  (role: Staff): number[] =>
    theirs(role).map(pick);
/** People outside the role's help desk: the other campus's, and Northfield's for a campus. */
function othersPeople(role: Staff): number[] {
  if (role.name === 'manager' || role.name === 'support') return [];
  return [...theirs(role).map((c) => c.personId), world.northfieldPersonId];
}
function othersOrgs(role: Staff): number[] {
  if (role.name === 'manager') return [];
  return [...theirs(role).map((c) => c.orgId), 1, 4];
}
/** Another session's CSRF token. */
function otherToken(role: Staff): string {
  return role.name === 'student' ? world.roles.support.token : world.roles.student.token;
}
/** What a role must never be shown: the other campus's own words. */
function secrets(role: Role): string[] {
  return theirs(role as Staff).flatMap((campus) => campus.secrets);
}

// ---------------------------------------------------------------------------------------------
// The calls: every action and loader of issue 39's routes (web/routes.ts, "Issue 39 part:").

type OpsCall = Call<Staff> & { mayOpen: RoleName[] };

const termFields: Field<Staff>[] = [
  { in: 'form', name: 'title', kind: 'bounded' },
  { in: 'form', name: 'termType', kind: 'text' },
  { in: 'form', name: 'startDate', kind: 'text' },
  { in: 'form', name: 'endDate', kind: 'text' },
];
const termForm = { title: 'Hostile term', termType: 'semester' };
const termDates = { startDate: '2027-01-04', endDate: '2027-05-30' };
const courseFields: Field<Staff>[] = [
  { in: 'form', name: 'name', kind: 'bounded' },
  { in: 'form', name: 'department', kind: 'bounded' },
  { in: 'form', name: 'number', kind: 'bounded' },
  { in: 'form', name: 'courseType', kind: 'text' },
];
const courseForm = (campus: Campus) => ({
  name: `Hostile course ${campus.title}`,
  department: 'HOS',
  number: `1${campus.orgId}1`,
  courseType: 'inclusive_access',
});
const sectionFields: Field<Staff>[] = [
  { in: 'form', name: 'name', kind: 'bounded' },
  { in: 'form', name: 'number', kind: 'bounded' },
  { in: 'form', name: 'termId', kind: 'id', others: others((c) => c.termId) },
  { in: 'form', name: 'startDate', kind: 'text' },
  { in: 'form', name: 'endDate', kind: 'text' },
  { in: 'form', name: 'timeZone', kind: 'text' },
  { in: 'form', name: 'optOutDate', kind: 'text' },
  { in: 'form', name: 'optOutTime', kind: 'text' },
  { in: 'form', name: 'dropDate', kind: 'text' },
  { in: 'form', name: 'dropTime', kind: 'text' },
  { in: 'form', name: 'optingMethod', kind: 'text' },
  // A fee or a code is any short text to the form: only bad text and length are hostile.
  { in: 'form', name: 'fee', kind: 'bounded' },
  { in: 'form', name: 'sectionCode', kind: 'bounded' },
];
const termPath: Field<Staff> = {
  in: 'path',
  name: 'termId',
  kind: 'id',
  others: others((c) => c.termId),
};
const coursePath: Field<Staff> = {
  in: 'path',
  name: 'courseId',
  kind: 'id',
  others: others((c) => c.courseId),
};
const sectionPath: Field<Staff> = {
  in: 'path',
  name: 'sectionId',
  kind: 'id',
  others: others((c) => c.sectionId),
};
const intent: Field<Staff> = { in: 'form', name: 'intent', kind: 'text' };
const orgQuery: Field<Staff> = { in: 'query', name: 'org', kind: 'id', others: othersOrgs };
const SECTION = '/manage/course-manager/sections/:sectionId';
const billingTermPath: Field<Staff> = {
  in: 'path',
  name: 'termId',
  kind: 'id',
  others: others((c) => c.billingTermId),
};
const personPath: Field<Staff> = {
  in: 'path',
  name: 'userId',
  kind: 'id',
  others: othersPeople,
};
/** The person a role's help desk may act on. */
function personOf(role: Staff): number {
  return role.name === 'manager' || role.name === 'support'
    ? world.northfieldPersonId
    : own(role).personId;
}
const PERSON = '/manage/users/:userId';
const importPath: Field<Staff> = {
  in: 'path',
  name: 'importId',
  kind: 'id',
  others: others((c) => c.importId),
};

function personCall(
  name: string,
  form: Record<string, string>,
  fields: Field<Staff>[] = [],
): OpsCall {
  return {
    name: `POST /manage/users/{id} (${name})`,
    method: 'POST',
    path: PERSON,
    body: 'form',
    mayOpen: HELP_DESK,
    fields: [personPath, intent, ...fields],
    valid: (role) => ({ path: { userId: personOf(role) }, form }),
  };
}

const CALLS: OpsCall[] = [
  // Course Manager and Course Admin.
  {
    name: 'GET /manage/course-manager',
    method: 'GET',
    path: '/manage/course-manager',
    mayOpen: COURSE_STAFF,
    fields: [orgQuery],
    valid: (role) => ({ query: { org: own(role).orgId } }),
  },
  {
    name: 'POST /manage/course-manager (new term)',
    method: 'POST',
    path: '/manage/course-manager',
    body: 'form',
    mayOpen: COURSE_STAFF,
    fields: [{ in: 'form', name: 'orgId', kind: 'id', others: othersOrgs }, ...termFields],
    valid: (role) => ({ form: { orgId: own(role).orgId, ...termForm, ...termDates } }),
  },
  {
    name: 'POST /manage/course-admin (new term)',
    method: 'POST',
    path: '/manage/course-admin',
    body: 'form',
    mayOpen: ['manager'],
    fields: [{ in: 'form', name: 'orgId', kind: 'id', others: othersOrgs }, ...termFields],
    valid: (role) => ({ form: { orgId: own(role).orgId, ...termForm, ...termDates } }),
  },
  {
    name: 'GET /manage/course-manager/terms/{id}',
    method: 'GET',
    path: '/manage/course-manager/terms/:termId',
    mayOpen: COURSE_STAFF,
    fields: [termPath],
    valid: (role) => ({ path: { termId: own(role).termId } }),
  },
  {
    name: 'POST /manage/course-manager/terms/{id} (save)',
    method: 'POST',
    path: '/manage/course-manager/terms/:termId',
    body: 'form',
    mayOpen: COURSE_STAFF,
    fields: [termPath, intent, ...termFields],
    valid: (role) => ({
      path: { termId: own(role).termId },
      form: {
        intent: 'save',
        title: `Hostile term ${own(role).title}`,
        termType: 'semester',
        ...termDates,
      },
    }),
  },
  {
    name: 'POST /manage/course-manager/terms/{id} (end)',
    method: 'POST',
    path: '/manage/course-manager/terms/:termId',
    body: 'form',
    mayOpen: COURSE_STAFF,
    fields: [termPath, intent],
    // The confirmed post (the first one only asks: 200).
    valid: (role) => ({
      path: { termId: own(role).termId },
      form: { intent: 'end', confirm: 'yes' },
    }),
  },
  {
    name: 'GET /manage/course-manager/courses',
    method: 'GET',
    path: '/manage/course-manager/courses',
    mayOpen: COURSE_STAFF,
    fields: [orgQuery],
    valid: (role) => ({ query: { org: own(role).orgId } }),
  },
  {
    name: 'POST /manage/course-manager/courses (new course)',
    method: 'POST',
    path: '/manage/course-manager/courses',
    body: 'form',
    mayOpen: COURSE_STAFF,
    fields: [{ in: 'form', name: 'orgId', kind: 'id', others: othersOrgs }, ...courseFields],
    valid: (role) => ({
      form: { orgId: own(role).orgId, ...courseForm(own(role)), number: 'H2' },
    }),
  },
  {
    name: 'GET /manage/course-manager/courses/{id}',
    method: 'GET',
    path: '/manage/course-manager/courses/:courseId',
    mayOpen: COURSE_STAFF,
    fields: [coursePath],
    valid: (role) => ({ path: { courseId: own(role).courseId } }),
  },
  {
    name: 'POST /manage/course-manager/courses/{id} (save)',
    method: 'POST',
    path: '/manage/course-manager/courses/:courseId',
    body: 'form',
    mayOpen: COURSE_STAFF,
    fields: [coursePath, ...courseFields],
    valid: (role) => ({ path: { courseId: own(role).courseId }, form: courseForm(own(role)) }),
  },
  {
    name: 'GET /manage/course-manager/courses/{id}/new-section',
    method: 'GET',
    path: '/manage/course-manager/courses/:courseId/new-section',
    mayOpen: COURSE_STAFF,
    fields: [coursePath],
    valid: (role) => ({ path: { courseId: own(role).courseId } }),
  },
  {
    name: 'POST /manage/course-manager/courses/{id}/new-section',
    method: 'POST',
    path: '/manage/course-manager/courses/:courseId/new-section',
    body: 'form',
    mayOpen: COURSE_STAFF,
    fields: [coursePath, ...sectionFields],
    valid: (role) => ({
      path: { courseId: own(role).courseId },
      form: { ...SECTION_FORM, number: '002', termId: own(role).termId },
    }),
  },
  {
    name: 'GET /manage/course-manager/sections/{id}',
    method: 'GET',
    path: SECTION,
    mayOpen: COURSE_STAFF,
    fields: [sectionPath],
    valid: (role) => ({ path: { sectionId: own(role).sectionId } }),
  },
  {
    name: 'POST /manage/course-manager/sections/{id} (save)',
    method: 'POST',
    path: SECTION,
    body: 'form',
    mayOpen: COURSE_STAFF,
    fields: [sectionPath, intent, ...sectionFields],
    valid: (role) => ({
      path: { sectionId: own(role).sectionId },
      form: {
        intent: 'section',
        ...SECTION_FORM,
        name: 'Hostile section B',
        termId: own(role).termId,
      },
    }),
  },
  {
    name: 'POST /manage/course-manager/sections/{id} (end)',
    method: 'POST',
    path: SECTION,
    body: 'form',
    mayOpen: COURSE_STAFF,
    fields: [sectionPath, intent],
    valid: (role) => ({
      path: { sectionId: own(role).sectionId },
      form: { intent: 'end', confirm: 'yes' },
    }),
  },
  {
    name: 'POST /manage/course-manager/sections/{id} (member-add)',
    method: 'POST',
    path: SECTION,
    body: 'form',
    mayOpen: COURSE_STAFF,
    fields: [
      sectionPath,
      intent,
      { in: 'form', name: 'email', kind: 'text' },
      { in: 'form', name: 'role', kind: 'text' },
    ],
    valid: (role) => ({
      path: { sectionId: own(role).sectionId },
      form: { intent: 'member-add', email: own(role).spareEmail, role: 'student' },
    }),
  },
  {
    name: 'POST /manage/course-manager/sections/{id} (member-role)',
    method: 'POST',
    path: SECTION,
    body: 'form',
    mayOpen: COURSE_STAFF,
    fields: [
      sectionPath,
      intent,
      { in: 'form', name: 'memberId', kind: 'id', others: others((c) => c.memberId) },
      { in: 'form', name: 'role', kind: 'text' },
    ],
    valid: (role) => ({
      path: { sectionId: own(role).sectionId },
      form: { intent: 'member-role', memberId: own(role).memberId, role: 'teaching_assistant' },
    }),
  },
  {
    name: 'POST /manage/course-manager/sections/{id} (member-remove)',
    method: 'POST',
    path: SECTION,
    body: 'form',
    mayOpen: COURSE_STAFF,
    fields: [
      sectionPath,
      intent,
      { in: 'form', name: 'memberId', kind: 'id', others: others((c) => c.memberId) },
    ],
    valid: (role) => ({
      path: { sectionId: own(role).sectionId },
      form: { intent: 'member-remove', memberId: own(role).memberId, confirm: 'yes' },
    }),
  },
  {
    name: 'POST /manage/course-manager/sections/{id} (material-add)',
    method: 'POST',
    path: SECTION,
    body: 'form',
    mayOpen: COURSE_STAFF,
    fields: [
      sectionPath,
      intent,
      { in: 'form', name: 'reference', kind: 'choice' },
      { in: 'form', name: 'required', kind: 'text' },
    ],
    valid: (role) => ({
      path: { sectionId: own(role).sectionId },
      form: { intent: 'material-add', reference: own(role).productId, required: 'optional' },
    }),
  },
  {
    name: 'POST /manage/course-manager/sections/{id} (material-remove)',
    method: 'POST',
    path: SECTION,
    body: 'form',
    mayOpen: COURSE_STAFF,
    fields: [
      sectionPath,
      intent,
      { in: 'form', name: 'adoptionId', kind: 'id', others: others((c) => c.adoptionId) },
    ],
    valid: (role) => ({
      path: { sectionId: own(role).sectionId },
      form: { intent: 'material-remove', adoptionId: own(role).adoptionId },
    }),
  },
  // Roster import (the upload itself: its own test below).
  {
    name: 'GET /manage/roster-imports/{id}',
    method: 'GET',
    path: '/manage/roster-imports/:importId',
    mayOpen: COURSE_STAFF,
    fields: [importPath],
    valid: (role) => ({ path: { importId: own(role).importId } }),
  },
  {
    name: 'GET /manage/roster-imports/{id}/report.csv',
    method: 'GET',
    path: '/manage/roster-imports/:importId/report.csv',
    mayOpen: COURSE_STAFF,
    fields: [importPath],
    valid: (role) => ({ path: { importId: own(role).importId } }),
  },
  {
    name: 'POST /manage/roster-imports/{id} (apply)',
    method: 'POST',
    path: '/manage/roster-imports/:importId',
    body: 'form',
    mayOpen: COURSE_STAFF,
    fields: [importPath, intent],
    valid: (role) => ({ path: { importId: own(role).importId }, form: { intent: 'apply' } }),
  },
  // The term at a glance, on the white-label site that has it.
  ...(['inclusive-dashboard', 'campus-insights'] as const).map(
    (page): OpsCall => ({
      name: `GET /manage/${page}`,
      method: 'GET',
      path: `/manage/${page}`,
      host: PARTNER_HOST,
      mayOpen: CAMPUS_FIGURES,
      fields: [
        orgQuery,
        { in: 'query', name: 'term', kind: 'id', others: others((c) => c.billingTermId) },
        { in: 'query', name: 'department', kind: 'bounded' },
        { in: 'query', name: 'courseType', kind: 'text' },
      ],
      valid: (role) => ({
        query: { org: own(role).orgId, term: own(role).billingTermId, courseType: '' },
      }),
    }),
  ),
  // Bursar billing.
  {
    name: 'GET /manage/billing/terms/{id}',
    method: 'GET',
    path: '/manage/billing/terms/:termId',
    mayOpen: COURSE_STAFF,
    fields: [billingTermPath, { in: 'query', name: 'made', kind: 'id' }],
    valid: (role) => ({ path: { termId: own(role).billingTermId } }),
  },
  {
    name: 'POST /manage/billing/terms/{id} (finalise)',
    method: 'POST',
    path: '/manage/billing/terms/:termId',
    body: 'form',
    mayOpen: COURSE_STAFF,
    fields: [billingTermPath, intent, { in: 'form', name: 'fingerprint', kind: 'text' }],
    // The term's lines are billed already: a right fingerprint finds nothing new. The
    // confirmed post (the first one only asks: 200).
    valid: (role) => ({
      path: { termId: own(role).billingTermId },
      form: { intent: 'finalise', fingerprint: 'nothing-new', confirm: 'yes' },
    }),
  },
  {
    name: 'GET /manage/billing/terms/{id}/reconciliation',
    method: 'GET',
    path: '/manage/billing/terms/:termId/reconciliation',
    mayOpen: COURSE_STAFF,
    fields: [billingTermPath],
    valid: (role) => ({ path: { termId: own(role).billingTermId } }),
  },
  {
    name: 'GET /manage/billing/runs/{id}/file.csv',
    method: 'GET',
    path: '/manage/billing/runs/:runId/file.csv',
    mayOpen: COURSE_STAFF,
    fields: [{ in: 'path', name: 'runId', kind: 'id', others: others((c) => c.runId) }],
    valid: (role) => ({ path: { runId: own(role).runId } }),
  },
  {
    name: 'GET /manage/billing/charges/{id}',
    method: 'GET',
    path: '/manage/billing/charges/:chargeId',
    mayOpen: COURSE_STAFF,
    fields: [{ in: 'path', name: 'chargeId', kind: 'id', others: others((c) => c.chargeId) }],
    valid: (role) => ({ path: { chargeId: own(role).chargeId } }),
  },
  {
    name: 'POST /manage/billing/charges/{id} (refunded by the campus)',
    method: 'POST',
    path: '/manage/billing/charges/:chargeId',
    body: 'form',
    mayOpen: COURSE_STAFF,
    fields: [
      { in: 'path', name: 'chargeId', kind: 'id', others: others((c) => c.chargeId) },
      { in: 'form', name: 'reason', kind: 'bounded' },
    ],
    valid: (role) => ({
      path: { chargeId: own(role).chargeId },
      form: { reason: 'Refunded at the bursar' },
    }),
  },
  {
    name: 'GET /manage/billing/mapping/{orgId}',
    method: 'GET',
    path: '/manage/billing/mapping/:orgId',
    mayOpen: COURSE_STAFF,
    fields: [{ in: 'path', name: 'orgId', kind: 'id', others: othersOrgs }],
    valid: (role) => ({ path: { orgId: own(role).orgId } }),
  },
  {
    name: 'POST /manage/billing/mapping/{orgId}',
    method: 'POST',
    path: '/manage/billing/mapping/:orgId',
    body: 'form',
    mayOpen: COURSE_STAFF,
    fields: [
      { in: 'path', name: 'orgId', kind: 'id', others: othersOrgs },
      { in: 'form', name: 'field0', kind: 'text' },
      // A header is any short text: only bad text and length are hostile.
      { in: 'form', name: 'header0', kind: 'bounded' },
      { in: 'form', name: 'field1', kind: 'text' },
      { in: 'form', name: 'header1', kind: 'bounded' },
    ],
    valid: (role) => ({
      path: { orgId: own(role).orgId },
      form: {
        ...Object.fromEntries(
          Array.from({ length: MAX_BILLING_COLUMNS }, (_, i) => [
            [`field${i}`, ''],
            [`header${i}`, ''],
          ]).flat(),
        ),
        field0: 'campus_id',
        header0: 'StudentNo',
        field1: 'amount_cents',
        header1: 'Cents',
      },
    }),
  },
  // Refunds.
  {
    name: 'GET /manage/orders/{id}',
    method: 'GET',
    path: '/manage/orders/:orderId',
    mayOpen: HELP_DESK,
    fields: [{ in: 'path', name: 'orderId', kind: 'id' }],
    valid: () => ({ path: { orderId: world.order.id } }),
  },
  {
    name: 'POST /manage/orders/{id} (refund a line)',
    method: 'POST',
    path: '/manage/orders/:orderId',
    body: 'form',
    mayOpen: HELP_DESK,
    fields: [
      { in: 'path', name: 'orderId', kind: 'id' },
      intent,
      { in: 'form', name: 'orderItemId', kind: 'id' },
      { in: 'form', name: 'reason', kind: 'bounded' },
    ],
    valid: () => ({
      path: { orderId: world.order.id },
      form: { intent: 'refund', orderItemId: world.order.itemIds[0]!, reason: 'Hostile check' },
    }),
  },
  // The Claim Code Checker and SKU Lookup (spec 1 §2 user menu).
  {
    name: 'POST /manage/claim-code-checker',
    method: 'POST',
    path: '/manage/claim-code-checker',
    body: 'form',
    mayOpen: CLAIM_CODE_CHECKER,
    fields: [{ in: 'form', name: 'code', kind: 'bounded' }],
    valid: () => ({ form: { code: 'HOSTILE-CHECK-0001' } }),
  },
  {
    name: 'GET /manage/sku-lookup',
    method: 'GET',
    path: '/manage/sku-lookup',
    mayOpen: CAMPUS_FIGURES,
    fields: [{ in: 'query', name: 'sku', kind: 'bounded' }],
    valid: () => ({ query: { sku: '978-0-306-40615-7' } }),
  },
  // My Inventory: the list, a delivery received, a count saved.
  {
    name: 'GET /manage/my-inventory',
    method: 'GET',
    path: '/manage/my-inventory',
    mayOpen: MY_INVENTORY,
    fields: [
      { in: 'query', name: 'show', kind: 'text' },
      { in: 'query', name: 'q', kind: 'bounded' },
      { in: 'query', name: 'page', kind: 'id' },
      { in: 'query', name: 'saved', kind: 'id' },
      { in: 'query', name: 'done', kind: 'text' },
    ],
    valid: () => ({
      query: { show: 'low', q: 'Hostile', page: 1, saved: countedOfferingId, done: 'count' },
    }),
  },
  {
    name: 'POST /manage/my-inventory (receive)',
    method: 'POST',
    path: '/manage/my-inventory',
    body: 'form',
    mayOpen: MY_INVENTORY,
    fields: [
      intent,
      { in: 'form', name: 'offeringId', kind: 'id' },
      // A figure typed with a leading zero is read as people mean it.
      { in: 'form', name: 'units', kind: 'id', accepts: ['"01"'] },
    ],
    valid: () => ({ form: { intent: 'receive', offeringId: countedOfferingId, units: 1 } }),
  },
  {
    name: 'POST /manage/my-inventory (count)',
    method: 'POST',
    path: '/manage/my-inventory',
    body: 'form',
    mayOpen: MY_INVENTORY,
    fields: [
      intent,
      { in: 'form', name: 'offeringId', kind: 'id' },
      // None on hand is a count, as is a figure with a leading zero.
      { in: 'form', name: 'counted', kind: 'id', accepts: ['"0"', '"01"'] },
      // Not the line's version: the count is refused as overtaken.
      { in: 'form', name: 'version', kind: 'text' },
    ],
    valid: () => ({
      form: {
        intent: 'count',
        offeringId: countedOfferingId,
        counted: 500,
        version: countedVersion,
      },
    }),
  },
  // The help desk and Switch Account.
  {
    name: 'GET /manage/my-users (search)',
    method: 'GET',
    path: '/manage/my-users',
    mayOpen: HELP_DESK,
    fields: [
      { in: 'query', name: 'q', kind: 'bounded' },
      { in: 'query', name: 'page', kind: 'id' },
    ],
    valid: () => ({ query: { q: 'Hostile', page: 1 } }),
  },
  {
    name: 'GET /manage/users/{id}',
    method: 'GET',
    path: PERSON,
    mayOpen: HELP_DESK,
    fields: [personPath],
    valid: (role) => ({ path: { userId: personOf(role) } }),
  },
  personCall('lock', { intent: 'lock', confirm: 'yes' }, [
    { in: 'form', name: 'confirm', kind: 'text' },
  ]),
  personCall('unlock', { intent: 'unlock' }),
  personCall('verify', { intent: 'verify' }),
  personCall('reset', { intent: 'reset' }),
  personCall('grant', { intent: 'grant', role: 'support' }, [
    { in: 'form', name: 'role', kind: 'text' },
  ]),
  personCall('revoke', { intent: 'revoke', role: 'support', confirm: 'yes' }, [
    { in: 'form', name: 'role', kind: 'text' },
    { in: 'form', name: 'confirm', kind: 'text' },
  ]),
  personCall('switch', { intent: 'switch' }),
  {
    name: 'POST /manage/switch-account',
    method: 'POST',
    path: '/manage/switch-account',
    body: 'form',
    mayOpen: [],
    fields: [],
    valid: () => ({ form: {} }),
  },
];

/**
 * Each call's values: all of them for one of the roles that may open its page (a different one
 * from call to call, so each role meets every kind of field), a few for the others who may, one
 * for those it refuses before reading a field; every id of someone else's, for each.
 */
function attemptsFor(call: OpsCall, index: number): Attempt[] {
  const roles = ROLE_NAMES.map((name) => world.roles[name]);
  const thorough = call.mayOpen[index % Math.max(call.mayOpen.length, 1)];
  return attemptsOf(call, roles, otherToken, (role): Depth => {
    if (role.name === thorough) return 'full';
    return call.mayOpen.includes(role.name) ? 'thin' : 'touch';
  });
}

// ---------------------------------------------------------------------------------------------
// Uploads: multipart bodies, built here.

type Part = { name: string; value: string } | { name: string; fileName: string; bytes: Buffer };

function multipart(parts: Part[]): { body: Buffer; type: string } {
  const boundary = `----hostile${Date.now().toString(36)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('value' in part) {
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`),
      );
    } else {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        part.bytes,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

const ROSTER_PACKAGE = 'tests/fixtures/oneroster/bulk';
function packageParts(): Part[] {
  return readdirSync(ROSTER_PACKAGE).map((file) => ({
    name: 'package',
    fileName: file,
    bytes: readFileSync(path.join(ROSTER_PACKAGE, file)),
  }));
}

type Upload = {
  label: string;
  parts: Part[];
  csrf?: 'missing' | 'another session' | 'foreign origin';
  /** Sent without a length, in chunks: the limit is met while reading. */
  chunked?: boolean;
  /** A length said in the header, larger than the limit (the body is small). */
  declared?: number;
  status?: number | number[];
};

function uploadAttempt(role: Staff, locale: Locale, target: string, upload: Upload): Attempt {
  const token =
    upload.csrf === 'missing'
      ? null
      : upload.csrf === 'another session'
        ? otherToken(role)
        : role.token;
  const parts: Part[] = token ? [{ name: 'csrfmiddlewaretoken', value: token }] : [];
  const { body, type } = multipart([...parts, ...upload.parts]);
  const headers: Record<string, string> = {
    cookie: cookieHeader(role.cookies, locale),
    'accept-language': locale,
    accept: 'text/html',
    'content-type': type,
  };
  if (upload.csrf === 'foreign origin') headers.origin = FOREIGN_ORIGIN;
  if (upload.declared) headers['content-length'] = String(upload.declared);
  return {
    label: `${role.name} (${locale}) POST ${target} [${upload.label}]`,
    role,
    locale,
    url: `${baseUrl()}${target}`,
    init: upload.chunked
      ? {
          method: 'POST',
          redirect: 'manual',
          headers,
          body: new Blob([new Uint8Array(body)]).stream(),
          duplex: 'half',
        }
      : { method: 'POST', redirect: 'manual', headers, body: new Uint8Array(body) },
    status: upload.csrf ? 403 : upload.status,
  } as Attempt;
}

/** A request whose body is never all sent: the server answers (413) before reading it. */
async function declaredTooLarge(attempt: Attempt): Promise<string | null> {
  const url = new URL(attempt.url);
  const headers = attempt.init.headers as Record<string, string>;
  const http = await import('node:http');
  return new Promise((resolve) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          const response = new Response(text, {
            status: res.statusCode,
            headers: { 'content-type': String(res.headers['content-type'] ?? '') },
          });
          const statuses = [attempt.status ?? 413].flat();
          if (!statuses.includes(res.statusCode ?? 0)) {
            resolve(`${attempt.label}: expected ${statuses.join(' or ')}, got ${res.statusCode}`);
            return;
          }
          const language = languageProblem(response, text, attempt.locale);
          resolve(language ? `${attempt.label}: ${language}` : null);
        });
      },
    );
    req.on('error', (error) => resolve(`${attempt.label}: no answer (${error.message})`));
    req.write((attempt.init.body as Uint8Array).subarray(0, 1000));
  });
}

const BIG = 2_500_000;

/** Too large: 413; a sender who may not upload here may be refused first (403). */
function tooLarge(role: Staff): number | number[] {
  return COURSE_STAFF.includes(role.name) ? 413 : [403, 413];
}

function rosterUploads(role: Staff): Upload[] {
  const campus = own(role);
  const valid = (extra: Part[], label: string, status?: number): Upload => ({
    label,
    parts: [...extra, ...packageParts()],
    status,
  });
  const orgValues = ['abc', '0', '-1', '1.5', '1e3', '0x10', '2147483648', 'x'.repeat(100_000)];
  const foreignOrgs = role.name === 'manager' ? [] : [...theirs(role).map((c) => c.orgId), 1, 4];
  return [
    ...orgValues.map((org) =>
      valid(
        [
          { name: 'org', value: org },
          { name: 'dryRun', value: 'on' },
        ],
        `org=${org.slice(0, 12)}`,
      ),
    ),
    ...foreignOrgs.map((org) =>
      valid(
        [
          { name: 'org', value: String(org) },
          { name: 'dryRun', value: 'on' },
        ],
        `org=${org} (theirs)`,
      ),
    ),
    ...['abc', 'yes', '1', 'a\u0000b'].map((dry) =>
      valid(
        [
          { name: 'org', value: String(campus.orgId) },
          { name: 'dryRun', value: dry },
        ],
        `dryRun=${JSON.stringify(dry)}`,
      ),
    ),
    {
      label: 'no file',
      parts: [
        { name: 'org', value: String(campus.orgId) },
        { name: 'dryRun', value: 'on' },
      ],
    },
    {
      label: 'an empty file',
      parts: [
        { name: 'org', value: String(campus.orgId) },
        { name: 'package', fileName: 'export.zip', bytes: Buffer.alloc(0) },
      ],
    },
    {
      label: 'a file that is no package',
      parts: [
        { name: 'org', value: String(campus.orgId) },
        { name: 'package', fileName: 'notes.txt', bytes: Buffer.from('not a roster') },
      ],
    },
    {
      label: 'a file name with NUL',
      parts: [
        { name: 'org', value: String(campus.orgId) },
        { name: 'package', fileName: 'a\u0000b.zip', bytes: Buffer.from('PK') },
      ],
    },
    ...(['missing', 'another session', 'foreign origin'] as const).map(
      (csrf): Upload => ({
        ...valid(
          [
            { name: 'org', value: String(campus.orgId) },
            { name: 'dryRun', value: 'on' },
          ],
          `CSRF: ${csrf}`,
        ),
        csrf,
      }),
    ),
    {
      label: `${BIG} bytes streamed (over the 2 MB limit)`,
      parts: [
        { name: 'org', value: String(campus.orgId) },
        { name: 'package', fileName: 'big.zip', bytes: Buffer.alloc(BIG, 0x41) },
      ],
      chunked: true,
      status: tooLarge(role),
    },
    {
      label: 'a length of 300 MB declared',
      parts: [{ name: 'org', value: String(campus.orgId) }],
      declared: 300_000_000,
      status: tooLarge(role),
    },
  ];
}

function paidUploads(role: Staff): { target: string; upload: Upload }[] {
  const target = (termId: number | string) => `/manage/billing/terms/${termId}/reconciliation`;
  const own_ = own(role).billingTermId;
  const csv = (text: string) => Buffer.from(text);
  const file = (bytes: Buffer, fileName = 'paid.csv'): Part[] => [
    { name: 'paid', fileName, bytes },
  ];
  const good = file(csv('campus_id,amount_decimal\nE2E-1,79.00\n'));
  const uploads: { target: string; upload: Upload }[] = [
    ...['abc', '0', '1e3', '2147483648', ...theirs(role).map((c) => String(c.billingTermId))].map(
      (id) => ({ target: target(id), upload: { label: `termId=${id}`, parts: good } }),
    ),
    { target: target(own_), upload: { label: 'no file', parts: [] } },
    { target: target(own_), upload: { label: 'an empty file', parts: file(Buffer.alloc(0)) } },
    {
      target: target(own_),
      upload: { label: 'not CSV', parts: file(Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80])) },
    },
    {
      target: target(own_),
      upload: { label: 'no header', parts: file(csv('E2E-1;79,00\n"unclosed\n')) },
    },
    {
      target: target(own_),
      upload: {
        label: 'huge amount',
        parts: file(csv(`campus_id,amount_decimal\nA,${'9'.repeat(400)}\n`)),
      },
    },
    {
      target: target(own_),
      upload: { label: 'a file name with NUL', parts: file(csv('campus_id\n'), 'a\u0000b.csv') },
    },
    {
      target: target(own_),
      upload: {
        label: '1.2 MB on one line (a record over 10,000 characters)',
        parts: file(Buffer.alloc(1_200_000, 0x41)),
      },
    },
    {
      target: target(own_),
      upload: {
        label: '5.5 MB (over the 5 MB limit)',
        parts: file(Buffer.alloc(5_500_000, 0x41)),
        status: tooLarge(role),
      },
    },
    {
      target: target(own_),
      upload: {
        label: 'a length of 50 MB declared',
        parts: good,
        declared: 50_000_000,
        status: tooLarge(role),
      },
    },
    ...(['missing', 'another session', 'foreign origin'] as const).map((csrf) => ({
      target: target(own_),
      upload: { label: `CSRF: ${csrf}`, parts: good, csrf },
    })),
  ];
  return uploads;
}

/** No 5xx, for an answer that is data, not words. */
async function checkStatus(attempt: Attempt): Promise<string | null> {
  const response = await fetch(attempt.url, attempt.init);
  await response.arrayBuffer();
  return response.status >= 500 ? `${attempt.label}: expected < 500, got ${response.status}` : null;
}

async function checkUploads(attempts: Attempt[]): Promise<string[]> {
  const problems: string[] = [];
  for (const attempt of attempts) {
    const headers = attempt.init.headers as Record<string, string>;
    const problem = headers['content-length']
      ? await declaredTooLarge(attempt)
      : await check(attempt, secrets);
    if (problem) problems.push(problem);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------

describe('issue 39: hostile input to the campus tools', { shuffle: false }, () => {
  it('issue 39: the setup holds each campus’s objects, and the other campus’s to try', () => {
    for (const campus of [world.riverbend, world.lakeshore]) {
      for (const [name, id] of Object.entries(campus)) {
        if (typeof id === 'number') expect(id, name).toBeGreaterThan(0);
      }
    }
    expect(world.riverbend.orgId).not.toBe(world.lakeshore.orgId);
    expect(world.order.itemIds.length).toBeGreaterThan(0);
  });

  let lastSnapshot: Map<string, string> | null = null;
  for (const [index, call] of CALLS.entries()) {
    it(`issue 39: ${call.name} refuses every hostile value from every role, in the visitor's language, and changes nothing`, async () => {
      const before = lastSnapshot ?? (await snapshot(server.app, RULES));
      lastSnapshot = null;
      const attempts = attemptsFor(call, index);
      const problems = await checkAll(attempts, secrets);
      const after = await snapshot(server.app, RULES);
      lastSnapshot = after;
      expect(await stillAnswers(), 'the server still answers').toBe(200);
      expect({ problems, changed: changedTables(before, after) }).toEqual({
        problems: [],
        changed: [],
      });
    });
  }

  it('issue 39: a roster upload refuses every hostile field, file and size, in the visitor’s language, and changes nothing', async () => {
    const before = lastSnapshot ?? (await snapshot(server.app, RULES));
    lastSnapshot = null;
    const attempts = ROLE_NAMES.flatMap((name, i) =>
      rosterUploads(world.roles[name]).map((upload, j) =>
        uploadAttempt(
          world.roles[name],
          (i + j) % 2 ? 'fr-CA' : 'en',
          '/manage/roster-imports',
          upload,
        ),
      ),
    );
    const problems = await checkUploads(attempts);
    const after = await snapshot(server.app, RULES);
    lastSnapshot = after;
    expect(await stillAnswers()).toBe(200);
    expect({ problems, changed: changedTables(before, after) }).toEqual({
      problems: [],
      changed: [],
    });
  });

  it('issue 39: an "upload" posted as a form to an upload page by another spelling of its path never takes a file of the server’s', async () => {
    const before = lastSnapshot ?? (await snapshot(server.app, RULES));
    lastSnapshot = null;
    const victim = path.join(files, 'victim.zip');
    const problems: string[] = [];
    // React Router matches a path whatever its case, trailing slash or percent-encoding; the
    // edge streams uploads for the exact paths only (server/edge.ts UPLOAD_PATHS).
    const spellings = (page: string) => [
      `${page}/`,
      `${page}/?index`,
      `${page}/.data`,
      `${page}/_.data`,
      `${page}/index.data`,
      `${page.toUpperCase()}`,
      `${page.toUpperCase()}.data`,
      `/${page}`,
      page.replace(/\/manage\/(\w)/, (_, c: string) => `/manage/%${c.charCodeAt(0).toString(16)}`),
    ];
    type Case = [target: string, role: 'bookstore' | 'manager', field: string, name: string];
    const cases: Case[] = [
      ...spellings('/manage/roster-imports').flatMap((target): Case[] => [
        [target, 'bookstore', 'package', 'export.zip'],
        [target, 'manager', 'package', 'export.zip'],
      ]),
      ...spellings('/manage/admin/imports').map(
        (target): Case => [target, 'manager', 'feed', 'feed.xml'],
      ),
    ];
    for (const [i, [target, name, field, fileName]] of cases.entries()) {
      writeFileSync(victim, 'PK-not-a-package');
      const role = world.roles[name];
      const locale: Locale = i % 2 ? 'fr-CA' : 'en';
      const form = new URLSearchParams({
        csrfmiddlewaretoken: role.token,
        org: String(own(role).orgId),
        'upload.file': JSON.stringify({ field, fileName, path: victim, bytes: 16 }),
      });
      // A '.data' URL answers React Router's data (message keys the page's script words), so
      // only its status is checked there.
      const problem = await (target.includes('.data') ? checkStatus : check)(
        {
          label: `${name} (${locale}) POST ${target} [a form naming a file of the server's]`,
          role,
          locale,
          url: `${baseUrl()}${target}`,
          init: {
            method: 'POST',
            redirect: 'manual',
            headers: {
              cookie: cookieHeader(role.cookies, locale),
              'accept-language': locale,
              'content-type': FORM,
            },
            body: form.toString(),
          },
        },
        secrets,
      );
      if (problem) problems.push(problem);
      if (!existsSync(victim)) problems.push(`${name} POST ${target}: the server's file was taken`);
    }
    const after = await snapshot(server.app, RULES);
    lastSnapshot = after;
    expect({ problems, changed: changedTables(before, after) }).toEqual({
      problems: [],
      changed: [],
    });
  });

  it('issue 39: the paid file of a reconciliation refuses every hostile file and size, in the visitor’s language, and changes nothing', async () => {
    const before = lastSnapshot ?? (await snapshot(server.app, RULES));
    lastSnapshot = null;
    const attempts = ROLE_NAMES.flatMap((name, i) =>
      paidUploads(world.roles[name]).map(({ target, upload }, j) =>
        uploadAttempt(world.roles[name], (i + j) % 2 ? 'fr-CA' : 'en', target, upload),
      ),
    );
    const problems = await checkUploads(attempts);
    const after = await snapshot(server.app, RULES);
    lastSnapshot = after;
    expect(await stillAnswers()).toBe(200);
    expect({ problems, changed: changedTables(before, after) }).toEqual({
      problems: [],
      changed: [],
    });
  });

  it('issue 39: the valid request each hostile one varies is accepted, so every refusal above is the hostile value’s', async () => {
    // The hostile requests above used up the help desk's mail throttle, as they should.
    await db().execute(sql`delete from account_mail_requests`);
    // And the Claim Code Checker's.
    await db().execute(sql`delete from claim_code_checks`);
    const CONTROL: [call: string, role: RoleName, status: number][] = [
      ['GET /manage/course-manager', 'bookstore', 200],
      ['GET /manage/course-manager/terms/{id}', 'lakeshore', 200],
      ['GET /manage/course-manager/courses', 'coursemanager', 200],
      ['GET /manage/course-manager/courses/{id}', 'manager', 200],
      ['GET /manage/course-manager/courses/{id}/new-section', 'bookstore', 200],
      ['GET /manage/course-manager/sections/{id}', 'lakeshore', 200],
      ['POST /manage/course-manager (new term)', 'bookstore', 302],
      ['POST /manage/course-admin (new term)', 'manager', 302],
      ['POST /manage/course-manager/terms/{id} (save)', 'lakeshore', 302],
      ['POST /manage/course-manager/courses (new course)', 'coursemanager', 302],
      ['POST /manage/course-manager/courses/{id} (save)', 'bookstore', 302],
      ['POST /manage/course-manager/courses/{id}/new-section', 'lakeshore', 302],
      ['POST /manage/course-manager/sections/{id} (save)', 'bookstore', 302],
      ['POST /manage/course-manager/sections/{id} (member-add)', 'lakeshore', 302],
      ['POST /manage/course-manager/sections/{id} (member-role)', 'bookstore', 302],
      ['POST /manage/course-manager/sections/{id} (member-remove)', 'lakeshore', 302],
      ['POST /manage/course-manager/sections/{id} (material-add)', 'bookstore', 302],
      ['POST /manage/course-manager/sections/{id} (material-remove)', 'lakeshore', 302],
      ['GET /manage/roster-imports/{id}', 'bookstore', 200],
      ['GET /manage/roster-imports/{id}/report.csv', 'lakeshore', 200],
      ['GET /manage/inclusive-dashboard', 'bookstore', 200],
      ['GET /manage/campus-insights', 'lakeshore', 200],
      ['GET /manage/billing/terms/{id}', 'bookstore', 200],
      ['POST /manage/billing/terms/{id} (finalise)', 'lakeshore', 409],
      ['GET /manage/billing/terms/{id}/reconciliation', 'bookstore', 200],
      ['GET /manage/billing/runs/{id}/file.csv', 'lakeshore', 200],
      ['GET /manage/billing/charges/{id}', 'bookstore', 200],
      ['POST /manage/billing/charges/{id} (refunded by the campus)', 'lakeshore', 302],
      ['GET /manage/billing/mapping/{orgId}', 'bookstore', 200],
      ['POST /manage/billing/mapping/{orgId}', 'coursemanager', 302],
      ['GET /manage/orders/{id}', 'support', 200],
      ['POST /manage/orders/{id} (refund a line)', 'support', 200],
      ['POST /manage/claim-code-checker', 'manager', 200],
      ['GET /manage/sku-lookup', 'bookstore', 200],
      ['GET /manage/my-inventory', 'manager', 200],
      // The count first: it holds while nothing has changed the stock (the hostile ones did not).
      ['POST /manage/my-inventory (count)', 'manager', 302],
      ['POST /manage/my-inventory (receive)', 'manager', 302],
      ['GET /manage/my-users (search)', 'support', 200],
      ['GET /manage/users/{id}', 'bookstore', 200],
      // Demo students have proved their address: nothing to send, said as a conflict.
      ['POST /manage/users/{id} (verify)', 'support', 409],
      ['POST /manage/users/{id} (reset)', 'support', 200],
      ['POST /manage/users/{id} (lock)', 'lakeshore', 200],
      ['POST /manage/users/{id} (unlock)', 'lakeshore', 200],
      ['POST /manage/users/{id} (grant)', 'manager', 200],
      ['POST /manage/users/{id} (revoke)', 'manager', 200],
      ['POST /manage/course-manager/terms/{id} (end)', 'bookstore', 302],
      ['POST /manage/course-manager/sections/{id} (end)', 'lakeshore', 302],
      ['POST /manage/roster-imports/{id} (apply)', 'bookstore', 302],
      ['POST /manage/users/{id} (switch)', 'manager', 302],
    ];
    const problems: string[] = [];
    for (const [name, roleName, status] of CONTROL) {
      const call = CALLS.find((c) => c.name === name);
      if (!call) {
        problems.push(`no call ${name}`);
        continue;
      }
      const role = world.roles[roleName];
      const attempt = attemptOf(call, role, 'en', { kind: 'valid' }, otherToken(role));
      const problem = await check({ ...attempt, status }, secrets);
      if (problem) problems.push(problem);
    }
    // A roster package, uploaded as a dry run.
    const upload = uploadAttempt(world.roles.lakeshore, 'en', '/manage/roster-imports', {
      label: 'valid',
      parts: [
        { name: 'org', value: String(world.lakeshore.orgId) },
        { name: 'dryRun', value: 'on' },
        ...packageParts(),
      ],
      status: 302,
    });
    const uploaded = await check(upload);
    if (uploaded) problems.push(uploaded);
    const paid = uploadAttempt(
      world.roles.bookstore,
      'fr-CA',
      `/manage/billing/terms/${world.riverbend.billingTermId}/reconciliation`,
      {
        label: 'valid',
        parts: [
          { name: 'paid', fileName: 'paid.csv', bytes: Buffer.from('StudentNo,Cents\nX-1,7900\n') },
        ],
        status: 200,
      },
    );
    const reconciled = await check(paid);
    if (reconciled) problems.push(reconciled);
    expect(problems).toEqual([]);
    // The imports started here finish before the server stops.
    for (let i = 0; i < 100; i += 1) {
      const [row] = await queryRows<{ n: number }>(
        db(),
        sql`select count(*)::int as n from roster_imports where status in ('queued', 'running')`,
      );
      if (row!.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
});
