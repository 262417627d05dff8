// The reading context's services (issue 5, Reading and files): who may open a book and its
// files, the reader's view of a book, positions, reading events, the DRM copy and print
// counters, and section analytics built from the events.
import { and, asc, eq, sql } from 'drizzle-orm';
import { queryRows } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { courseSections, courses, sectionMembers } from '#db/schema/courses.ts';
import { readingEvents, readingPositions } from '#db/schema/reading.ts';
import { analyticsVisibility } from '#domain/analytics/analytics-visibility.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, Invalid, NotFound } from '#domain/shared/errors.ts';
import { allowanceUsage } from './allowances.ts';
import { bookLanguage } from './book-language.ts';
import { allowanceLimit, printLimit, shownDrmPercent } from './drm.ts';
import type { BookFileStore, ByteRange } from './file-store.ts';
import { fixedSpreads } from './fixed-spreads.ts';
import {
  fileMetrics,
  openBook,
  partText,
  partUrls,
  pdfTextsOf,
  printPagesOf,
  publisherStyles,
  renderedPart,
} from './open-books.ts';
import { pageAt, pageLabel, printPageCount } from './print-pages.ts';
import {
  memberSection,
  readableProduct,
  readerContext,
  readerFile,
  readingGrant,
  storedPercent,
  userOf,
} from './reader-access.ts';
import { findOccurrences } from './text-search.ts';
import type { ReaderPart, ReaderView, ReadingVia, SearchHit, SectionAnalytics } from './types.ts';

export type { BookFileStore, ByteRange, ReadingVia };
export { diskFileStore } from './file-store.ts';

/**
 * Opens a book in the reader (/book/read/{id}, /cds_book_read/{id}): checks access, records
 * the open, and returns what the page shows first: the saved place (or `part`, a chapter the
 * URL names), that chapter's text for an EPUB, the table of contents and the DRM allowances.
 */
export async function openReader(
  ctx: RequestContext,
  store: BookFileStore,
  input: {
    productId: number;
    via: ReadingVia;
    courseSectionId: number | null;
    part: number | null;
    /** False when the page is fetched to be kept offline, not read: no 'open' event. */
    recordOpen?: boolean;
  },
): Promise<ReaderView> {
  const product = await readableProduct(ctx, input.productId);
  const grant = await readingGrant(ctx, product.id, input.via);
  const user = userOf(ctx);
  const file = await readerFile(ctx, product.id);
  const metrics = await fileMetrics(ctx, store, file);
  const partCount = metrics.partLengths.length;
  const [saved] = await ctx.db
    .select({ part: readingPositions.part, progression: readingPositions.progression })
    .from(readingPositions)
    .where(and(eq(readingPositions.userId, user.id), eq(readingPositions.productId, product.id)))
    .limit(1);
  const named = input.part !== null && input.part < partCount ? input.part : null;
  const position =
    named !== null
      ? { part: named, progression: saved?.part === named ? saved.progression : 0 }
      : saved && saved.part < partCount
        ? saved
        : { part: 0, progression: 0 };
  const format = file.extension === 'epub' ? 'epub' : 'pdf';
  let part: ReaderPart | null = null;
  let toc: ReaderView['toc'] = [];
  let partTitles: string[] = [];
  let bookCss = '';
  let spread: ReaderView['spread'] = 'none';
  let spreads: number[][] = [];
  let language = bookLanguage({ productLanguage: product.languageCode });
  if (format === 'epub') {
    const book = await openBook(store, file);
    const urls = partUrls(file.id, input.via);
    part = renderedPart(book, position.part, urls);
    toc = book.publication.toc;
    partTitles = book.publication.parts.map((p) => p.title);
    const cssKey = String(input.via.courseMemberId);
    bookCss = book.css.get(cssKey) ?? publisherStyles(book.publication, urls);
    if (book.css.size >= 100) book.css.clear();
    book.css.set(cssKey, bookCss);
    if (book.publication.parts.some((p) => p.fixed)) {
      spread = book.publication.spread;
      spreads = fixedSpreads(book.publication.parts, book.publication.pageProgression === 'rtl');
    }
    language = bookLanguage({
      metadataLanguage: book.publication.language,
      pageProgression: book.publication.pageProgression,
      productLanguage: product.languageCode,
    });
  }
  const usage = await allowanceUsage(ctx, user.id, product.id);
  const courseSectionId = await memberSection(ctx, user.id, input.courseSectionId);
  if (input.recordOpen !== false)
    await ctx.db.insert(readingEvents).values({
      userId: user.id,
      productId: product.id,
      kind: 'open',
      part: position.part,
      courseSectionId,
      occurredAt: ctx.now,
    });
  const copyPercent = storedPercent(product.drmCopyPercent);
  const printPercent = storedPercent(product.drmPrintPercent);
  const printPages = await printPagesOf(store, file, metrics);
  const pageCount = printPageCount(printPages);
  return {
    product: { id: product.id, title: product.title, authors: product.authors },
    language,
    grant,
    format,
    file: { id: file.id },
    partCount,
    partTitles,
    bookCss,
    spread,
    spreads,
    toc,
    position,
    part,
    drm: {
      offlinePercent: shownDrmPercent(storedPercent(product.drmOfflinePercent)),
      copyPercent: shownDrmPercent(copyPercent),
      printPercent: shownDrmPercent(printPercent),
      copy: { limit: allowanceLimit(copyPercent, metrics.textLength), used: usage.copied },
      print: {
        limit: printLimit(printPercent, pageCount),
        used: usage.printed,
        pages: pageCount,
        unit: printPages.unit,
      },
    },
    printPages,
    courseSectionId,
  };
}

/** One chapter of an EPUB, rendered, for the reader's next or previous page. */
export async function readerPart(
  ctx: RequestContext,
  store: BookFileStore,
  productId: number,
  part: number,
  via: ReadingVia,
): Promise<ReaderPart> {
  const { file } = await readerContext(ctx, productId, via);
  if (file.extension !== 'epub') throw new NotFound();
  const book = await openBook(store, file);
  if (part < 0 || part >= book.publication.parts.length) throw new NotFound();
  return renderedPart(book, part, partUrls(file.id, via));
}

/**
 * An EPUB's parts' texts, as the reader shows them, for the parts asked (issue 16: anchoring
 * highlights and bookmarks); only to someone who may read the book now.
 */
export async function bookPartTexts(
  ctx: RequestContext,
  store: BookFileStore,
  productId: number,
  parts: readonly number[],
  via: ReadingVia,
): Promise<{ product: { id: number }; format: 'epub' | 'pdf'; texts: Map<number, string> }> {
  const { product, file } = await readerContext(ctx, productId, via);
  const texts = new Map<number, string>();
  if (file.extension !== 'epub') {
    // A PDF's parts are its pages.
    const pages = parts.length > 0 ? await pdfTextsOf(store, file) : [];
    for (const part of new Set(parts)) {
      const text = pages[part];
      if (text !== undefined) texts.set(part, text);
    }
    return { product, format: 'pdf', texts };
  }
  const book = await openBook(store, file);
  const urls = partUrls(file.id, via);
  for (const part of new Set(parts)) {
    if (part >= 0 && part < book.publication.parts.length)
      texts.set(part, partText(book, part, urls));
  }
  return { product, format: 'epub', texts };
}

/**
 * What an export of the reader's notes needs of the book (issue 16): its title, each part's
 * title, the copy allowance's limit in characters, and the printed page a place in a part's
 * text is on (null where the book does not say: a page-list entry that is not a page-break
 * marker of the text gives no place to compare with, and guessing would mislabel notes).
 */
export async function bookForNotes(
  ctx: RequestContext,
  store: BookFileStore,
  productId: number,
  via: ReadingVia,
): Promise<{
  product: { id: number; title: string };
  copyLimit: number;
  partTitle(part: number): string;
  pageOf(part: number, offset: number): string | null;
}> {
  const { product, file } = await readerContext(ctx, productId, via);
  const metrics = await fileMetrics(ctx, store, file);
  const copyLimit = allowanceLimit(storedPercent(product.drmCopyPercent), metrics.textLength);
  if (file.extension !== 'epub') {
    // A PDF's parts are its pages: a note's page is the one it is on, by the page's own label.
    const pages = await printPagesOf(store, file, metrics);
    return {
      product,
      copyLimit,
      partTitle: () => '',
      pageOf: (part) =>
        part >= 0 && part < printPageCount(pages) ? pageLabel(pages, part + 1) : null,
    };
  }
  const book = await openBook(store, file);
  const pages = await printPagesOf(store, file, metrics);
  const urls = partUrls(file.id, via);
  return {
    product,
    copyLimit,
    partTitle: (part) => book.publication.parts[part]?.title ?? '',
    pageOf(part, offset) {
      const text = partText(book, part, urls);
      const breaks = new Map((book.pageBreaks.get(part) ?? []).map((b) => [b.anchor, b.offset]));
      if (
        pages.unit === 'marked' &&
        pages.marks.some((m) => m.part === part && m.anchor !== null && !breaks.has(m.anchor))
      ) {
        return null;
      }
      const progression = text.length > 0 ? offset / text.length : 0;
      const n = pageAt(pages, { part, progression }, (anchor) => breaks.get(anchor)! <= offset);
      return n > 0 ? pageLabel(pages, n) : null;
    },
  };
}

/** Search in an EPUB's text (issue 5): up to 100 hits, in reading order, with some context. */
export async function searchBook(
  ctx: RequestContext,
  store: BookFileStore,
  productId: number,
  query: string,
  via: ReadingVia,
): Promise<SearchHit[]> {
  const { file } = await readerContext(ctx, productId, via);
  if (file.extension !== 'epub') throw new Invalid('reading.search.pdfInBrowser');
  const book = await openBook(store, file);
  const urls = partUrls(file.id, via);
  const hits: SearchHit[] = [];
  for (let part = 0; part < book.publication.parts.length && hits.length < 100; part++) {
    for (const hit of findOccurrences(partText(book, part, urls), query, 100 - hits.length)) {
      hits.push({ part, ...hit });
    }
  }
  return hits;
}

/**
 * A section's materials, each version of a physical/digital choice its own row (issue 19: the
 * walk found the alternative missing from the analytics, though the course lists it).
 */
const sectionMaterials = sql`(select s.section_id, x.product_id, s.position, s.id, x.n
  from section_products s
  cross join lateral unnest(array[s.product_id, s.additional_product_id])
    with ordinality as x(product_id, n)
  where x.product_id is not null)`;
/**
 * 'View Section Analytics' (spec 1 §2, §6: professors and teaching assistants of the section
 * only): for each material of the section, how many of its students own it now, how many of
 * them opened it, how often, and when last, from the reading events.
 */
export async function sectionAnalytics(
  ctx: RequestContext,
  sectionId: number,
): Promise<SectionAnalytics> {
  const user = userOf(ctx);
  const [section] = await ctx.db
    .select({
      id: courseSections.id,
      number: courseSections.number,
      department: courses.department,
      courseNumber: courses.number,
    })
    .from(courseSections)
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .where(eq(courseSections.id, sectionId))
    .limit(1);
  if (!section) throw new NotFound();
  const roles = await ctx.db
    .select({ role: sectionMembers.role })
    .from(sectionMembers)
    .where(and(eq(sectionMembers.sectionId, sectionId), eq(sectionMembers.userId, user.id)));
  const visibility = analyticsVisibility(roles.map((r) => r.role));
  if (!visibility.visible) throw new Forbidden(visibility.messageKey);
  const now = ctx.now.toISOString();
  const rows = await queryRows<{
    product_id: number;
    title: string;
    product_type: string;
    owners: number;
    readers: number;
    opens: number;
    last_opened_at: string | Date | null;
  }>(
    ctx.db,
    sql`with students as (
          select user_id from section_members where section_id = ${sectionId} and role = 'student'
        )
        select sp.product_id, p.title, p.product_type,
          (select count(distinct o.user_id)::int from ownerships o
            where o.product_id = sp.product_id and o.user_id in (select user_id from students)
              and o.starts_at <= ${now}::timestamptz
              and (o.revoked_at is null or o.revoked_at > ${now}::timestamptz)
              and (o.expires_at is null or o.expires_at > ${now}::timestamptz)) as owners,
          e.readers, e.opens, e.last_opened_at
        from ${sectionMaterials} sp
        join products p on p.id = sp.product_id
        cross join lateral (
          select count(distinct r.user_id)::int as readers, count(*)::int as opens,
                 max(r.occurred_at) as last_opened_at
          from reading_events r
          where r.product_id = sp.product_id and r.kind = 'open'
            and r.user_id in (select user_id from students)
        ) e
        where sp.section_id = ${sectionId}
        order by sp.position, sp.id, sp.n`,
  );
  // Each student with each material of the section (a row even when never opened).
  const perStudent = await queryRows<{
    user_id: number;
    first_name: string;
    last_name: string;
    email: string;
    product_id: number;
    owns: boolean;
    opens: number;
    last_opened_at: string | Date | null;
  }>(
    ctx.db,
    sql`select u.id as user_id, u.first_name, u.last_name, u.email, sp.product_id,
          exists (select 1 from ownerships o
            where o.product_id = sp.product_id and o.user_id = u.id
              and o.starts_at <= ${now}::timestamptz
              and (o.revoked_at is null or o.revoked_at > ${now}::timestamptz)
              and (o.expires_at is null or o.expires_at > ${now}::timestamptz)) as owns,
          e.opens, e.last_opened_at
        from section_members sm
        join users u on u.id = sm.user_id
        join ${sectionMaterials} sp on sp.section_id = sm.section_id
        cross join lateral (
          select count(*)::int as opens, max(r.occurred_at) as last_opened_at
          from reading_events r
          where r.product_id = sp.product_id and r.kind = 'open' and r.user_id = u.id
        ) e
        where sm.section_id = ${sectionId} and sm.role = 'student'
        order by lower(u.last_name), lower(u.first_name), u.id, sp.position, sp.id, sp.n`,
  );
  const studentsById = new Map<number, SectionAnalytics['students'][number]>();
  const [students] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(sectionMembers)
    .where(and(eq(sectionMembers.sectionId, sectionId), eq(sectionMembers.role, 'student')));
  const everyStudent = await ctx.db
    .select({
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(sectionMembers)
    .innerJoin(users, eq(users.id, sectionMembers.userId))
    .where(and(eq(sectionMembers.sectionId, sectionId), eq(sectionMembers.role, 'student')))
    .orderBy(sql`lower(${users.lastName})`, sql`lower(${users.firstName})`, asc(users.id));
  for (const student of everyStudent)
    studentsById.set(student.userId, { ...student, materials: [] });
  for (const row of perStudent) {
    studentsById.get(Number(row.user_id))?.materials.push({
      productId: Number(row.product_id),
      owns: Boolean(row.owns),
      opens: Number(row.opens),
      lastOpenedAt: row.last_opened_at === null ? null : new Date(row.last_opened_at),
    });
  }
  return {
    section,
    studentCount: Number(students?.n ?? 0),
    students: [...studentsById.values()],
    materials: rows.map((row) => ({
      productId: Number(row.product_id),
      title: row.title,
      productType: row.product_type,
      owners: Number(row.owners),
      readers: Number(row.readers),
      opens: Number(row.opens),
      lastOpenedAt: row.last_opened_at === null ? null : new Date(row.last_opened_at),
    })),
  };
}
