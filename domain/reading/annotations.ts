import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { readingAllowances, readingAnnotations } from '#db/schema/reading.ts';
import { slugify } from '#domain/catalog/product-route.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Invalid, NotFound } from '#domain/shared/errors.ts';
import { translate } from '#i18n/translate.ts';
import {
  ANNOTATIONS_PER_BOOK,
  type AnnotationKind,
  annotationFields,
  type HighlightColour,
} from './annotation-rules.ts';
import type { BookFileStore } from './file-store.ts';
import {
  EXPORT_EXTENSIONS,
  EXPORT_MEDIA_TYPES,
  type ExportFormat,
  type ExportWords,
  exportTime,
  quotesToExport,
  renderNotesExport,
} from './notes-export.ts';
import { userOf } from './reader-access.ts';
import { bookForNotes, bookPartTexts } from './service.ts';
import { anchorOf, locate } from './text-anchor.ts';
import type { ReadingVia } from './types.ts';

// A reader's highlights, notes and bookmarks in a book (issue 16, study tools), kept on the
// server for every device. Only someone who may read the book now may see or make them, and
// each person sees only their own: another reader's id is not found. Each is anchored in the
// text the server renders (text-anchor.ts), and located again in it when listed, so a new
// printing of the book moves them with their words, or reports them as lost. A PDF's parts
// are its pages, and a page's text is the one its text layer holds (pdf-text-items.ts).

export type Annotation = {
  id: number;
  kind: AnnotationKind;
  colour: HighlightColour | null;
  note: string | null;
  part: number;
  /** The words as they were anchored. */
  exact: string;
  /** Where they are in the part's text now; null when the words are gone from it. */
  located: { start: number; end: number; exact: boolean } | null;
  createdAt: string;
  updatedAt: string;
};

const columns = {
  id: readingAnnotations.id,
  kind: readingAnnotations.kind,
  colour: readingAnnotations.colour,
  note: readingAnnotations.note,
  part: readingAnnotations.part,
  start: readingAnnotations.startOffset,
  end: readingAnnotations.endOffset,
  exact: readingAnnotations.exact,
  prefix: readingAnnotations.prefix,
  suffix: readingAnnotations.suffix,
  createdAt: readingAnnotations.createdAt,
  updatedAt: readingAnnotations.updatedAt,
};
type Row = {
  id: number;
  kind: string;
  colour: string | null;
  note: string | null;
  part: number;
  start: number;
  end: number;
  exact: string;
  prefix: string;
  suffix: string;
  createdAt: Date;
  updatedAt: Date;
};

function shown(row: Row, texts: Map<number, string>): Annotation {
  const text = texts.get(row.part);
  return {
    id: row.id,
    kind: row.kind as AnnotationKind,
    colour: row.colour as HighlightColour | null,
    note: row.note,
    part: row.part,
    exact: row.exact,
    located: text === undefined ? null : locate(text, row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The reader's highlights and bookmarks in the book, in reading order, each located now. */
export async function annotationsOf(
  ctx: RequestContext,
  store: BookFileStore,
  productId: number,
  via: ReadingVia,
): Promise<Annotation[]> {
  const user = userOf(ctx);
  const rows = await ctx.db
    .select(columns)
    .from(readingAnnotations)
    .where(and(eq(readingAnnotations.userId, user.id), eq(readingAnnotations.productId, productId)))
    .orderBy(
      asc(readingAnnotations.part),
      asc(readingAnnotations.startOffset),
      asc(readingAnnotations.id),
    );
  const { texts } = await bookPartTexts(
    ctx,
    store,
    productId,
    rows.map((row) => row.part),
    via,
  );
  return rows.map((row) => shown(row, texts));
}

/**
 * A new highlight or bookmark on characters `start` to `end` of a part's text, which the
 * server reads itself: the quote stored is the book's, whatever the browser sent.
 */
export async function addAnnotation(
  ctx: RequestContext,
  store: BookFileStore,
  productId: number,
  input: {
    kind: AnnotationKind;
    part: number;
    start: number;
    end: number;
    colour?: HighlightColour | null;
    note?: string | null;
    /** The device's name for it (one made offline): sent again, it is the same one. */
    clientKey?: string;
  },
  via: ReadingVia,
): Promise<Annotation> {
  const user = userOf(ctx);
  const { product, texts } = await bookPartTexts(ctx, store, productId, [input.part], via);
  const again = () =>
    input.clientKey === undefined
      ? Promise.resolve([])
      : ctx.db
          .select(columns)
          .from(readingAnnotations)
          .where(
            and(
              eq(readingAnnotations.userId, user.id),
              eq(readingAnnotations.productId, product.id),
              eq(readingAnnotations.clientKey, input.clientKey),
            ),
          )
          .limit(1);
  // Sent again after an answer that never came: the one already made.
  const [made] = await again();
  if (made) return shown(made, texts);
  const text = texts.get(input.part);
  if (text === undefined) throw new Invalid('reading.annotations.noPassage');
  let anchor: ReturnType<typeof anchorOf>;
  try {
    anchor = anchorOf(text, input.part, input.start, input.end);
  } catch {
    throw new Invalid('reading.annotations.noPassage');
  }
  const [kept] = await ctx.db
    .select({ n: count() })
    .from(readingAnnotations)
    .where(
      and(eq(readingAnnotations.userId, user.id), eq(readingAnnotations.productId, product.id)),
    );
  if ((kept?.n ?? 0) >= ANNOTATIONS_PER_BOOK)
    throw new Invalid('reading.annotations.tooMany', { max: ANNOTATIONS_PER_BOOK });
  const fields = annotationFields(input.kind, input);
  const [row] = await ctx.db
    .insert(readingAnnotations)
    .values({
      userId: user.id,
      productId: product.id,
      kind: input.kind,
      ...fields,
      part: anchor.part,
      startOffset: anchor.start,
      endOffset: anchor.end,
      exact: anchor.exact,
      prefix: anchor.prefix,
      suffix: anchor.suffix,
      clientKey: input.clientKey ?? null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .onConflictDoNothing()
    .returning(columns);
  // Two sendings at once: the other one made it.
  const saved = row ?? (await again())[0];
  if (!saved) throw new Invalid('reading.annotations.noPassage');
  return shown(saved, texts);
}

async function ownRow(ctx: RequestContext, productId: number, id: number): Promise<Row> {
  const user = userOf(ctx);
  const [row] = await ctx.db
    .select(columns)
    .from(readingAnnotations)
    .where(
      and(
        eq(readingAnnotations.id, id),
        eq(readingAnnotations.userId, user.id),
        eq(readingAnnotations.productId, productId),
      ),
    )
    .limit(1);
  // Another reader's id is answered as one removed: nothing says it exists.
  if (!row) throw new NotFound('reading.annotations.gone');
  return row;
}

/** A highlight's colour or note changed; a bookmark has neither. */
export async function changeAnnotation(
  ctx: RequestContext,
  store: BookFileStore,
  productId: number,
  id: number,
  change: { colour?: HighlightColour; note?: string | null },
  via: ReadingVia,
): Promise<Annotation> {
  const row = await ownRow(ctx, productId, id);
  const { texts } = await bookPartTexts(ctx, store, productId, [row.part], via);
  if (row.kind !== 'highlight') throw new Invalid('reading.annotations.bookmarkHasNoNote');
  const fields = annotationFields('highlight', {
    colour: change.colour ?? (row.colour as HighlightColour | null),
    note: change.note === undefined ? row.note : change.note,
  });
  const [updated] = await ctx.db
    .update(readingAnnotations)
    .set({ ...fields, updatedAt: ctx.now })
    .where(eq(readingAnnotations.id, row.id))
    .returning(columns);
  return shown(updated!, texts);
}

export async function removeAnnotation(
  ctx: RequestContext,
  store: BookFileStore,
  productId: number,
  id: number,
  via: ReadingVia,
): Promise<void> {
  const row = await ownRow(ctx, productId, id);
  await bookPartTexts(ctx, store, productId, [], via);
  await ctx.db.delete(readingAnnotations).where(eq(readingAnnotations.id, row.id));
}

export type NotesExport = {
  fileName: string;
  mediaType: string;
  body: string;
  /** Highlights and bookmarks in the file. */
  count: number;
  /** Quotes left out of it: the copy allowance had no room for them. */
  leftOut: number;
  /** Characters of the copy allowance used now, this export's quotes counted. */
  copyUsed: number;
};

/**
 * The reader's highlights, notes and bookmarks in the book as a file (Markdown or CSV), in
 * their language and time zone (issue 16). The quotes it carries are counted against the
 * book's copy allowance in the same transaction that marks them counted (notes-export.ts
 * quotesToExport), so two exports at once never pass the limit together.
 */
export async function exportAnnotations(
  ctx: RequestContext,
  store: BookFileStore,
  productId: number,
  format: ExportFormat,
  via: ReadingVia,
): Promise<NotesExport> {
  const user = userOf(ctx);
  const book = await bookForNotes(ctx, store, productId, via);
  const mine = and(
    eq(readingAnnotations.userId, user.id),
    eq(readingAnnotations.productId, book.product.id),
  );
  const { rows, decision, copyUsed } = await ctx.db.transaction(async (tx) => {
    // The reader's allowance row, locked while the quotes are counted.
    await tx
      .insert(readingAllowances)
      .values({ userId: user.id, productId: book.product.id, updatedAt: ctx.now })
      .onConflictDoNothing();
    const [usage] = await tx
      .select({ copied: readingAllowances.copiedCharacters })
      .from(readingAllowances)
      .where(
        and(
          eq(readingAllowances.userId, user.id),
          eq(readingAllowances.productId, book.product.id),
        ),
      )
      .for('update');
    const rows = await tx
      .select({ ...columns, quoteCounted: readingAnnotations.quoteCounted })
      .from(readingAnnotations)
      .where(mine)
      .orderBy(
        asc(readingAnnotations.part),
        asc(readingAnnotations.startOffset),
        asc(readingAnnotations.id),
      );
    const decision = quotesToExport(
      rows.map((row) => ({
        id: row.id,
        characters: row.exact.length,
        counted: row.quoteCounted,
      })),
      { limit: book.copyLimit, used: usage?.copied ?? 0 },
    );
    const newlyCounted = rows
      .filter((row) => !row.quoteCounted && decision.included.has(row.id))
      .map((row) => row.id);
    if (newlyCounted.length > 0) {
      await tx
        .update(readingAllowances)
        .set({
          copiedCharacters: sql`${readingAllowances.copiedCharacters} + ${decision.counted}`,
          updatedAt: ctx.now,
        })
        .where(
          and(
            eq(readingAllowances.userId, user.id),
            eq(readingAllowances.productId, book.product.id),
          ),
        );
      await tx
        .update(readingAnnotations)
        .set({ quoteCounted: true })
        .where(and(mine, inArray(readingAnnotations.id, newlyCounted)));
    }
    const before = usage?.copied ?? 0;
    return { rows, decision, copyUsed: before + (newlyCounted.length > 0 ? decision.counted : 0) };
  });
  const locale = ctx.locale;
  const t = (id: string, values?: Record<string, string | number>) => translate(locale, id, values);
  const time = (at: Date) => exportTime(at, locale, user.timeZone);
  const colourName = (colour: HighlightColour) => t(`reader.colour.${colour}`);
  const words: ExportWords = {
    heading: t('reader.export.heading', { title: book.product.title }),
    exported: t('reader.export.exported', { date: time(ctx.now) }),
    highlight: (colour) => t('reader.export.highlight', { colour: colourName(colour) }),
    bookmark: t('reader.export.bookmark'),
    page: (label) => t('reader.export.page', { page: label }),
    note: t('reader.export.note'),
    quoteLeftOut: t('reader.export.quoteLeftOut'),
    columns: {
      kind: t('reader.export.column.kind'),
      colour: t('reader.export.column.colour'),
      chapter: t('reader.export.column.chapter'),
      page: t('reader.export.column.page'),
      quote: t('reader.export.column.quote'),
      note: t('reader.export.column.note'),
      created: t('reader.export.column.created'),
      updated: t('reader.export.column.updated'),
    },
    kindName: (kind) => t(`reader.export.kind.${kind}`),
    colourName,
  };
  const body = renderNotesExport(
    format,
    rows.map((row) => ({
      kind: row.kind as AnnotationKind,
      colour: row.colour as HighlightColour | null,
      chapter: book.partTitle(row.part),
      page: book.pageOf(row.part, row.start),
      quote: decision.included.has(row.id) ? row.exact : null,
      note: row.note,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    })),
    words,
    time,
  );
  const name = slugify(book.product.title) || 'book';
  return {
    fileName: `${name}-${t('reader.export.fileName')}.${EXPORT_EXTENSIONS[format]}`,
    mediaType: EXPORT_MEDIA_TYPES[format],
    body,
    count: rows.length,
    leftOut: decision.leftOut,
    copyUsed,
  };
}
