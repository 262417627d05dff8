import { and, asc, count, eq } from 'drizzle-orm';
import { readingAnnotations } from '#db/schema/reading.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Invalid, NotFound } from '#domain/shared/errors.ts';
import {
  ANNOTATIONS_PER_BOOK,
  type AnnotationKind,
  annotationFields,
  type HighlightColour,
} from './annotation-rules.ts';
import type { BookFileStore } from './file-store.ts';
import { bookPartTexts, userOf } from './service.ts';
import { anchorOf, locate } from './text-anchor.ts';
import type { ReadingVia } from './types.ts';

// A reader's highlights, notes and bookmarks in a book (issue 16, study tools), kept on the
// server for every device. Only someone who may read the book now may see or make them, and
// each person sees only their own: another reader's id is not found. Each is anchored in the
// text the server renders (text-anchor.ts), and located again in it when listed, so a new
// printing of the book moves them with their words, or reports them as lost.

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
  },
  via: ReadingVia,
): Promise<Annotation> {
  const user = userOf(ctx);
  const { product, format, texts } = await bookPartTexts(ctx, store, productId, [input.part], via);
  if (format !== 'epub') throw new Invalid('reading.annotations.epubOnly');
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
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning(columns);
  return shown(row!, texts);
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
  if (!row) throw new NotFound();
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
