// "Find your course materials" (issue 19): a public course lookup, as campus bookstores have:
// school → term → department → course → section, and what the section adopted with its
// offerings. It reads courses, sections and their materials only — never section members:
// nothing here can tell who is enrolled, or how many.

import { sql } from 'drizzle-orm';
import { queryRows } from '#db/client.ts';
import { productPath } from '#domain/catalog/product-route.ts';
import { offeringPriceCents } from '#domain/commerce/cart-button.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { NotFound } from '#domain/shared/errors.ts';
import { parseId } from '#domain/shared/id.ts';
import {
  type AcademicTerm,
  academicTermOf,
  compareTerms,
  parseTermKey,
  termDateRange,
} from './academic-term.ts';
import { courseFeeCovers } from './fee-covers.ts';

export type FinderSchool = { id: number; title: string };
export type FinderDepartment = { code: string; name: string };
export type FinderCourse = {
  id: number;
  department: string;
  number: string;
  /** The campus's own code, when a roster made the course (course-code.ts). */
  code: string | null;
  name: string;
};
export type FinderSection = {
  id: number;
  number: string | null;
  name: string;
  startDate: string;
  endDate: string;
};

/** What the visitor chose so far, each checked against the data. */
export type FinderChoices = {
  school?: FinderSchool;
  term?: AcademicTerm;
  department?: FinderDepartment;
  course?: FinderCourse;
};

/** One step of the finder: the choices made, and the options of the next choice. */
export type FinderStep =
  | { step: 'school'; chosen: FinderChoices; options: FinderSchool[] }
  | { step: 'term'; chosen: FinderChoices; options: AcademicTerm[] }
  | { step: 'department'; chosen: FinderChoices; options: FinderDepartment[] }
  | { step: 'course'; chosen: FinderChoices; options: FinderCourse[] }
  | { step: 'section'; chosen: FinderChoices; options: FinderSection[] };

/** The query of a finder URL, as it came: each value a string or absent. */
export type FinderQuery = {
  school?: string | null;
  term?: string | null;
  department?: string | null;
  course?: string | null;
};

const DEPARTMENT_CODE = /^[A-Za-z0-9&]{1,16}$/;

/**
 * The finder's next step for a query. A value that is malformed, unknown, or not offered by
 * the step before it (a course of another department, a term the school has no section in)
 * is not found, with a message saying which choice: the visitor can go back one step.
 */
export async function courseFinderStep(
  ctx: RequestContext,
  query: FinderQuery,
): Promise<FinderStep> {
  const schools = await finderSchools(ctx);
  if (!query.school) return { step: 'school', chosen: {}, options: schools };
  const schoolId = parseId(query.school);
  const school = schools.find((s) => s.id === schoolId);
  if (!school) throw new NotFound('courseFinder.notFound.school');

  const terms = await schoolTerms(ctx, school.id);
  if (!query.term) return { step: 'term', chosen: { school }, options: terms };
  const term = terms.find((t) => t.key === parseTermKey(query.term)?.key);
  if (!term) throw new NotFound('courseFinder.notFound.term');

  const departments = await termDepartments(ctx, school.id, term);
  if (!query.department) {
    return { step: 'department', chosen: { school, term }, options: departments };
  }
  const code = DEPARTMENT_CODE.test(query.department) ? query.department.toUpperCase() : null;
  const department = departments.find((d) => d.code === code);
  if (!department) throw new NotFound('courseFinder.notFound.department');

  const courses = await departmentCourses(ctx, school.id, term, department.code);
  if (!query.course) {
    return { step: 'course', chosen: { school, term, department }, options: courses };
  }
  const courseId = parseId(query.course);
  const course = courses.find((c) => c.id === courseId);
  if (!course) throw new NotFound('courseFinder.notFound.course');

  return {
    step: 'section',
    chosen: { school, term, department, course },
    options: await courseSections(ctx, course.id, term),
  };
}

/** Schools with at least one course section; on a white label, its own organisation only. */
async function finderSchools(ctx: RequestContext): Promise<FinderSchool[]> {
  const orgId = ctx.site.org?.id ?? null;
  return queryRows<FinderSchool>(
    ctx.db,
    sql`select o.id, o.title from organizations o
        where exists (select 1 from courses c join course_sections s on s.course_id = c.id
                      where c.org_id = o.id)
          ${orgId === null ? sql`` : sql`and o.id = ${orgId}`}
        order by o.title, o.id`,
  );
}

async function schoolTerms(ctx: RequestContext, orgId: number): Promise<AcademicTerm[]> {
  const rows = await queryRows<{ startDate: string }>(
    ctx.db,
    sql`select distinct s.start_date::text as "startDate"
        from courses c join course_sections s on s.course_id = c.id
        where c.org_id = ${orgId}`,
  );
  const byKey = new Map(rows.map((r) => academicTermOf(r.startDate)).map((t) => [t.key, t]));
  return [...byKey.values()].sort(compareTerms);
}

/** A department's name in the request's language, else its code (no name in the data). */
const departmentName = (ctx: RequestContext) =>
  ctx.locale === 'fr-CA'
    ? sql`coalesce(d.name_fr_ca, d.name, c.department)`
    : sql`coalesce(d.name, c.department)`;

async function termDepartments(
  ctx: RequestContext,
  orgId: number,
  term: AcademicTerm,
): Promise<FinderDepartment[]> {
  const { from, to } = termDateRange(term);
  return queryRows<FinderDepartment>(
    ctx.db,
    sql`select distinct c.department as code, ${departmentName(ctx)} as name
        from courses c
        join course_sections s on s.course_id = c.id
        left join departments d on d.org_id = c.org_id and d.code = c.department
        where c.org_id = ${orgId} and s.start_date between ${from} and ${to}
        order by name, code`,
  );
}

async function departmentCourses(
  ctx: RequestContext,
  orgId: number,
  term: AcademicTerm,
  department: string,
): Promise<FinderCourse[]> {
  const { from, to } = termDateRange(term);
  return queryRows<FinderCourse>(
    ctx.db,
    sql`select c.id, c.department, c.number, c.code, c.name from courses c
        where c.org_id = ${orgId} and c.department = ${department}
          and exists (select 1 from course_sections s where s.course_id = c.id
                      and s.start_date between ${from} and ${to})
        order by c.number, c.name, c.id`,
  );
}

async function courseSections(
  ctx: RequestContext,
  courseId: number,
  term: AcademicTerm,
): Promise<FinderSection[]> {
  const { from, to } = termDateRange(term);
  return queryRows<FinderSection>(
    ctx.db,
    sql`select s.id, s.number, s.name, s.start_date::text as "startDate",
               s.end_date::text as "endDate"
        from course_sections s
        where s.course_id = ${courseId} and s.start_date between ${from} and ${to}
        order by s.number nulls last, s.id`,
  );
}

export type FinderOffering = {
  id: number;
  type: string;
  priceCents: number;
  currencyCode: string;
  durationDays: number | null;
  isRental: boolean;
};

export type FinderMaterial = {
  productId: number;
  productType: string;
  title: string;
  subtitle: string | null;
  authors: string;
  languageCode: string;
  path: string;
  isRequired: boolean;
  /** Active offerings, cheapest first (spec 1 §4); empty when none can be bought. */
  offerings: FinderOffering[];
  /** The print version of a physical/digital choice (spec 1 §3 additionalShelfItem). */
  alternative: { productId: number; title: string; path: string } | null;
  /** The section's course fee gives it to its opted-in members (courseFeeCovers, issue 38). */
  includedInFee: boolean;
};

export type FinderSectionView = {
  chosen: Required<FinderChoices>;
  section: FinderSection;
  /** The section's course fee in integer cents (USD), or null: it has none. */
  courseFeeCents: number | null;
  /** Required first, then optional; each in the section's order. */
  materials: FinderMaterial[];
};

type MaterialRow = {
  productId: number;
  productType: string;
  title: string;
  subtitle: string | null;
  authors: string;
  slug: string;
  languageCode: string;
  isRequired: boolean;
  altId: number | null;
  altType: string | null;
  altTitle: string | null;
  altSlug: string | null;
};

/**
 * A section's adopted materials with their offerings and prices, and the choices that lead to
 * it (for the breadcrumb). Unknown sections are not found; deleted products are left out.
 */
export async function courseFinderSection(
  ctx: RequestContext,
  rawId: string | undefined,
): Promise<FinderSectionView> {
  const id = parseId(rawId);
  if (id === null) throw new NotFound('courseFinder.notFound.section');
  const orgId = ctx.site.org?.id ?? null;
  const [head] = await queryRows<
    FinderSection & {
      schoolId: number;
      schoolTitle: string;
      courseId: number;
      department: string;
      departmentName: string;
      courseNumber: string;
      courseCode: string | null;
      courseName: string;
      courseFeeCents: number | null;
    }
  >(
    ctx.db,
    sql`select s.id, s.number, s.name, s.start_date::text as "startDate",
               s.end_date::text as "endDate", o.id as "schoolId", o.title as "schoolTitle",
               c.id as "courseId", c.department, ${departmentName(ctx)} as "departmentName",
               c.number as "courseNumber", c.code as "courseCode", c.name as "courseName",
               s.course_fee_cents as "courseFeeCents"
        from course_sections s
        join courses c on c.id = s.course_id
        join organizations o on o.id = c.org_id
        left join departments d on d.org_id = c.org_id and d.code = c.department
        where s.id = ${id} ${orgId === null ? sql`` : sql`and c.org_id = ${orgId}`}`,
  );
  if (!head) throw new NotFound('courseFinder.notFound.section');
  const rows = await queryRows<MaterialRow>(
    ctx.db,
    sql`select p.id as "productId", p.product_type as "productType", p.title, p.subtitle,
               p.authors, p.slug, p.language_code as "languageCode",
               sp.is_required as "isRequired", a.id as "altId", a.product_type as "altType",
               a.title as "altTitle", a.slug as "altSlug"
        from section_products sp
        join products p on p.id = sp.product_id
        left join products a on a.id = sp.additional_product_id and a.status <> 'deleted'
        where sp.section_id = ${id} and p.status <> 'deleted'
        order by sp.is_required desc, sp.position, sp.id`,
  );
  const ids = rows.map((r) => r.productId);
  const offers =
    ids.length === 0
      ? []
      : await queryRows<FinderOffering & { productId: number; comboPriceCents: number | null }>(
          ctx.db,
          sql`select id, product_id as "productId", type, price_cents as "priceCents",
                     combo_price_cents as "comboPriceCents", currency_code as "currencyCode",
                     duration_days as "durationDays", is_rental as "isRental"
              from offerings
              where product_id in (${sql.join(
                ids.map((p) => sql`${p}`),
                sql`, `,
              )}) and is_active`,
        );
  const offersOf = (productId: number): FinderOffering[] =>
    offers
      .filter((o) => o.productId === productId)
      .map(({ productId: _, comboPriceCents, ...o }) => ({
        ...o,
        priceCents: offeringPriceCents({ ...o, comboPriceCents }),
      }))
      .sort((a, b) => a.priceCents - b.priceCents || a.id - b.id);
  const { schoolId, schoolTitle, courseId, department, departmentName: name } = head;
  return {
    chosen: {
      school: { id: schoolId, title: schoolTitle },
      term: academicTermOf(head.startDate),
      department: { code: department, name },
      course: {
        id: courseId,
        department,
        number: head.courseNumber,
        code: head.courseCode,
        name: head.courseName,
      },
    },
    section: {
      id: head.id,
      number: head.number,
      name: head.name,
      startDate: head.startDate,
      endDate: head.endDate,
    },
    courseFeeCents: head.courseFeeCents,
    materials: rows.map((r) => ({
      productId: r.productId,
      productType: r.productType,
      title: r.title,
      subtitle: r.subtitle,
      authors: r.authors,
      languageCode: r.languageCode,
      path: productPath({ id: r.productId, productType: r.productType, slug: r.slug }),
      isRequired: r.isRequired,
      offerings: offersOf(r.productId),
      alternative:
        r.altId !== null
          ? {
              productId: r.altId,
              title: r.altTitle ?? '',
              path: productPath({
                id: r.altId,
                productType: r.altType ?? '',
                slug: r.altSlug ?? '',
              }),
            }
          : null,
      includedInFee:
        head.courseFeeCents !== null &&
        courseFeeCovers({
          productType: r.productType,
          offeringTypes: offers.filter((o) => o.productId === r.productId).map((o) => o.type),
        }),
    })),
  };
}
