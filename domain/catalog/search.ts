import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { queryRows } from '#db/client.ts';
import { productIdentifiers, products } from '#db/schema/catalog.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { TimedCache } from '#domain/shared/timed-cache.ts';
import { PAGE_SIZE, pageWindow } from './pagination.ts';
import { cardColumns, offerSummaries, toProductCards } from './product-cards.ts';
import { type CourseCode, parseSearchTerms, type SearchTerms } from './search-terms.ts';
import { CARD_DESCRIPTION_WORDS, truncateWords } from './truncate-words.ts';
import type { ProductCard } from './types.ts';

export const SEARCH_PAGE_SIZE = PAGE_SIZE;

export type SearchResultCard = ProductCard & { description: string };

export type SearchOutcome =
  | { ok: false; reason: 'empty' | 'tooLong' }
  | {
      ok: true;
      terms: string;
      page: number;
      pages: number;
      count: number;
      /** More matches exist than were ranked (count is SEARCH_WINDOW). */
      more: boolean;
      /** The course code the term reads as ('BIO 101'), found or not. */
      course: CourseCode | null;
      /** How many results are that course's adopted materials (the first ones). */
      courseMatches: number;
      results: SearchResultCard[];
    };

/**
 * Catalog search (DESIGN.md, Data): the materials adopted by a course the term names ('BIO
 * 101', 'Biology 101'; issue 19; 'biolgy 101', 'Principles of Biology'; issue 38) first, then an exact identifier, then full-text rank, then
 * typo-tolerant similarity on titles. Edition words ('11th edition', '2nd ed.') ask for that
 * edition number. Narrow interface, so a dedicated engine can replace it.
 *
 * Designed for the common word (issue 3): ranking every match of 'introduction' in a million
 * products costs a second, so full-text ranking looks at most SEARCH_WINDOW matching rows
 * (taken straight from the GIN index, no ordering) and ranks those. A term with more matches
 * answers "more than 300 results" and its first three pages. When neither identifiers nor
 * words matched, the shopper likely mistyped: each word is corrected to the most similar
 * word of a title or author (correctedSpelling) and the search runs again.
 */
export async function searchCatalog(
  ctx: RequestContext,
  raw: string | null,
  page = 1,
): Promise<SearchOutcome> {
  const terms = parseSearchTerms(raw);
  if (!terms.ok) return terms;
  // Shoppers repeat the same searches (a course's ISBN, its title) within minutes: each process
  // keeps recent answers for a minute instead of ranking thousands of rows again.
  // A white label finds its own organisation's courses only: its answers are its own.
  const key = `${ctx.site.org?.id ?? ''}\u0000${terms.text.toLowerCase()}\u0000${Math.floor(page) || 1}`;
  return searchCache.getOrLoad(key, () => runSearch(ctx, terms, page));
}

export const SEARCH_WINDOW = 300;

const searchCache = new TimedCache<string, SearchOutcome>(60_000, 1_000, 'product lists');

// Inline literals, not parameters: the planner must see that this matches the partial
// index products_search (sellable products only).
const SELLABLE = sql.raw(`status not in ('deleted', 'withdrawn') and not is_disabled`);

type ParsedTerms = Extract<SearchTerms, { ok: true }>;

async function runSearch(
  ctx: RequestContext,
  terms: ParsedTerms,
  page: number,
): Promise<SearchOutcome> {
  // Independent lookups, at once where the database has connections to spare.
  const [named, identifierHits, textHits] = await Promise.all([
    namedCourses(ctx, terms),
    terms.identifiers.length > 0
      ? ctx.db
          .selectDistinct({ id: productIdentifiers.productId })
          .from(productIdentifiers)
          .innerJoin(products, eq(products.id, productIdentifiers.productId))
          .where(and(inArray(productIdentifiers.value, terms.identifiers), SELLABLE))
          .then((rows) => rows.map((r) => r.id))
      : [],
    textMatches(ctx, terms),
  ]);
  const courseHits = named ? await courseMaterials(ctx, named.courseIds) : [];
  let ranked = textHits;
  if (courseHits.length === 0 && identifierHits.length === 0 && ranked.length === 0) {
    const corrected = await correctedSpelling(ctx, terms.words);
    if (corrected) ranked = await textMatches(ctx, { ...terms, words: corrected });
  }
  const ids = [...new Set([...courseHits, ...identifierHits, ...ranked.map((r) => Number(r.id))])];
  const more = ids.length > SEARCH_WINDOW;
  const count = Math.min(ids.length, SEARCH_WINDOW);
  const { page: current, pages } = pageWindow(page, count, SEARCH_PAGE_SIZE);
  const pageIds = ids.slice((current - 1) * SEARCH_PAGE_SIZE, current * SEARCH_PAGE_SIZE);
  // Rows and prices of the page at once: the ids are known.
  const [rows, summaries] = await Promise.all([
    pageIds.length > 0
      ? ctx.db
          .select({ ...cardColumns, description: products.description })
          .from(products)
          .where(inArray(products.id, pageIds))
      : [],
    offerSummaries(ctx.db, pageIds),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ordered = pageIds.flatMap((id) => byId.get(id) ?? []);
  return {
    ok: true,
    terms: terms.text,
    page: current,
    pages,
    count,
    more,
    // The course found, as the shopper typed it or, when found by likeness, by its code.
    course: named?.course ?? terms.course,
    courseMatches: Math.min(courseHits.length, count),
    results: (await toProductCards(ctx.db, ordered, summaries)).map((card) => ({
      ...card,
      description: truncateWords(card.description, CARD_DESCRIPTION_WORDS),
    })),
  };
}

/** The words of a term, as search reads them: letters and digits, at most QUERY_WORDS. */
function searchWords(text: string, limit: number): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, limit);
}

// A pasted paragraph matches nothing when every word is required; the first words decide.
const QUERY_WORDS = 16;

/**
 * The full-text query of a term: every word required, each as its English stem (titles and
 * descriptions) or as written (authors and ISBNs, not stemmed): 'Urban Studies' reads
 * 'urban' & ('studi' | 'studies'). English stop words are left out unless the term has
 * nothing else ('of' is in every other description, and asking for it doubled the index work
 * of a full title, issue 13). Null when the term has no word at all.
 */
async function fullTextQuery(ctx: RequestContext, text: string): Promise<string | null> {
  const words = searchWords(text, QUERY_WORDS);
  if (words.length === 0) return null;
  const [row] = await queryRows<{ query: string | null; asWritten: string | null }>(
    ctx.db,
    sql`with forms as (
          select ord, plainto_tsquery('english', word) as stem, plainto_tsquery('simple', word) as plain
          from unnest(${sql.param(words)}::text[]) with ordinality as w(word, ord)
        )
        select
          string_agg(case when stem::text = plain::text then '(' || plain::text || ')'
                          else '(' || stem::text || ' | ' || plain::text || ')' end,
                     ' & ' order by ord) filter (where numnode(stem) > 0) as query,
          string_agg('(' || plain::text || ')', ' & ' order by ord) filter (where numnode(plain) > 0) as "asWritten"
        from forms`,
  );
  return row?.query ?? row?.asWritten ?? null;
}

/**
 * Matches of the term's words, restricted to the edition it names. When no product of that
 * edition matches, the words alone answer (a shopper asking for the 11th edition is better
 * served by the 10th than by nothing).
 */
async function textMatches(
  ctx: RequestContext,
  terms: Pick<ParsedTerms, 'words' | 'edition'>,
): Promise<{ id: number }[]> {
  if (terms.edition !== null) {
    const ofEdition = terms.words
      ? await rankedMatches(ctx, terms.words, terms.edition)
      : await editionMatches(ctx, terms.edition);
    if (ofEdition.length > 0) return ofEdition;
  }
  return rankedMatches(ctx, terms.words, null);
}

/** Full-text matches, at most SEARCH_WINDOW + 1 of them, best first. */
async function rankedMatches(
  ctx: RequestContext,
  text: string,
  edition: number | null,
): Promise<{ id: number }[]> {
  const tsquery = await fullTextQuery(ctx, text);
  if (!tsquery) return [];
  // A parameter, not a subquery: the planner sees the words and estimates their matches.
  const query = sql`${tsquery}::tsquery`;
  // An edition: index products_edition, ANDed with the text index by the planner.
  const ofEdition = edition === null ? sql`` : sql`and edition_number = ${edition}`;
  return queryRows<{ id: number }>(
    ctx.db,
    sql`select id from (
          select id, search_vector, sales_count from products
          where search_vector @@ ${query} and ${SELLABLE} ${ofEdition}
          limit ${SEARCH_WINDOW + 1}
        ) hits
        order by ts_rank_cd(search_vector, ${query}) desc, sales_count desc, id`,
  );
}

/** Only an edition ('2nd ed.'): that edition's best sellers, read in order from products_edition. */
function editionMatches(ctx: RequestContext, edition: number): Promise<{ id: number }[]> {
  return queryRows<{ id: number }>(
    ctx.db,
    sql`select id from products
        where edition_number = ${edition} and edition_number is not null and ${SELLABLE}
        order by sales_count desc nulls first, id
        limit ${SEARCH_WINDOW + 1}`,
  );
}

/** The courses a term names and how to say them ('BIO 101'), or null (issue 19, 38). */
type NamedCourses = { courseIds: number[]; course: CourseCode } | null;

/**
 * The courses a term names (issue 19, 38): its code ('BIO 101', 'Biology 101': the department
 * by code, or by name in either language; or the course's name and number), else the same
 * with its words spelt as course and department names spell them ('biolgy 101'); a term that
 * is no code, the course whose own name it is ('Principles of Biology'), or is once spelt so
 * ('principals of biolgy'). On a white label, the organisation's courses only. Every step
 * reads indexes: courses by code (courses_department_number) or name (courses_name),
 * departments by name (departments_name), and words in the small course_words dictionary.
 */
async function namedCourses(ctx: RequestContext, terms: ParsedTerms): Promise<NamedCourses> {
  if (terms.course) {
    const { subject, number } = terms.course;
    const exact = await coursesNamed(ctx, subject.toLowerCase(), number, subject);
    if (exact.length > 0) return { courseIds: exact.map((c) => c.id), course: terms.course };
    const corrected = await correctedCourseWords(ctx, subject);
    return corrected ? foundCourses(await coursesNamed(ctx, corrected, number)) : null;
  }
  if (terms.identifiers.length > 0 || terms.text.length > COURSE_NAME_MAX_LENGTH) return null;
  const exact = await coursesNamed(ctx, terms.text.toLowerCase(), null);
  if (exact.length > 0) return foundCourses(exact);
  // One word is a word of many names, spelt right or not: only a name is corrected.
  if (searchWords(terms.text, COURSE_NAME_WORDS + 1).length < 2) return null;
  const corrected = await correctedCourseWords(ctx, terms.text);
  return corrected ? foundCourses(await coursesNamed(ctx, corrected, null)) : null;
}

/** Longer text is a title or a pasted paragraph, not a course's name. */
const COURSE_NAME_MAX_LENGTH = 120;
const COURSE_NAME_WORDS = 12;

/** The courses found by name, said by the first one's code ('BIO 101'). */
function foundCourses(found: { id: number; department: string; number: string }[]): NamedCourses {
  const first = found[0];
  if (!first) return null;
  return {
    courseIds: found.map((c) => c.id),
    course: { subject: first.department, number: first.number },
  };
}

/**
 * The text with each word not found in course and department names replaced by the most
 * similar word that is (table course_words, trigram similarity), lower case; null when no
 * word changed. Words under three letters ('of', 'to') stay as typed.
 */
async function correctedCourseWords(ctx: RequestContext, text: string): Promise<string | null> {
  const words = searchWords(text, COURSE_NAME_WORDS);
  if (words.length === 0) return null;
  const rows = await queryRows<{ word: string; best: string | null }>(
    ctx.db,
    sql`select q.word, case
          when length(q.word) < 3 or exists (select 1 from course_words w where w.word = q.word)
          then q.word
          else (select w.word from course_words w
                where w.word % q.word
                order by similarity(w.word, q.word) desc, w.word
                limit 1)
        end as best
        from unnest(${sql.param(words)}::text[]) with ordinality as q(word, ord)
        order by q.ord`,
  );
  const corrected = rows.map((row) => row.best ?? row.word).join(' ');
  return corrected === words.join(' ') ? null : corrected;
}

/**
 * The courses named so (lower case) with the number: by their own name, or — with a number —
 * by their department's name in either language, or by the department code given. Without
 * a number, by their own name only: a department's name alone is many courses.
 */
async function coursesNamed(
  ctx: RequestContext,
  name: string,
  number: string | null,
  code: string | null = null,
): Promise<{ id: number; department: string; number: string }[]> {
  const orgId = ctx.site.org?.id ?? null;
  const ofOrg = (column: SQL) => (orgId === null ? sql`` : sql`and ${column} = ${orgId}`);
  const byCode =
    code === null || number === null
      ? sql``
      : sql`select c.id, c.department, c.number from courses c
            where c.department = ${code.toUpperCase()} and c.number = ${number}
              ${ofOrg(sql`c.org_id`)}
            union`;
  const byDepartment =
    number === null
      ? sql``
      : sql`select c.id, c.department, c.number from departments d
            join courses c on c.org_id = d.org_id and c.department = d.code and c.number = ${number}
            where (lower(d.name) = ${name} or lower(d.name_fr_ca) = ${name})
              ${ofOrg(sql`d.org_id`)}
            union`;
  const ofNumber = number === null ? sql`` : sql`and c.number = ${number}`;
  const rows = await queryRows<{ id: number; department: string; number: string }>(
    ctx.db,
    sql`${byCode} ${byDepartment}
        select c.id, c.department, c.number from courses c
        where lower(c.name) = ${name} ${ofNumber} ${ofOrg(sql`c.org_id`)}
        order by id
        limit ${COURSE_LIMIT}`,
  );
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** At most this many courses read as one term: a name every school gives a course, say. */
const COURSE_LIMIT = 1000;

/**
 * The materials adopted by the sections of the courses a term names, required ones first,
 * then by how the sections list them.
 */
async function courseMaterials(ctx: RequestContext, courseIds: number[]): Promise<number[]> {
  if (courseIds.length === 0) return [];
  const rows = await queryRows<{ id: number }>(
    ctx.db,
    sql`select p.id from course_sections s
        join section_products sp on sp.section_id = s.id
        join products p on p.id = sp.product_id
        where s.course_id = any(${sql.param(courseIds)}::int[]) and ${SELLABLE}
        group by p.id
        order by bool_or(sp.is_required) desc, min(sp.position), max(s.start_date) desc, p.id
        limit ${SEARCH_WINDOW + 1}`,
  );
  return rows.map((r) => Number(r.id));
}

/**
 * The term with each word replaced by the most similar word of a title or author name
 * (table search_words, trigram similarity), or null when no word changed: 'calculsu' reads
 * as 'calculus'.
 */
async function correctedSpelling(ctx: RequestContext, text: string): Promise<string | null> {
  const words = searchWords(text, 8);
  if (words.length === 0) return null;
  const rows = await queryRows<{ word: string; best: string | null }>(
    ctx.db,
    sql`select q.word, (
          select w.word from search_words w
          where w.word % q.word
          order by similarity(w.word, q.word) desc, w.word
          limit 1
        ) as best
        from unnest(${sql.param(words)}::text[]) as q(word)`,
  );
  const corrected = rows.map((row) => row.best ?? row.word).join(' ');
  return corrected === words.join(' ') ? null : corrected;
}
