import { createHash } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { and, count, desc, eq, lt, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { ensureCategoryTree } from '#db/reference/categories.ts';
import { users } from '#db/schema/accounts.ts';
import { categories } from '#db/schema/catalog.ts';
import { catalogImportRefusals, catalogImports } from '#db/schema/catalog-imports.ts';
import { rowsOf } from '#db/seed/bulk-insert.ts';
import type { BookFileStore } from '#domain/reading/file-store.ts';
import { isUniqueViolation } from '#domain/shared/unique-violation.ts';
import type { MessageWording } from '#domain/shared/wording.ts';
import { attachBookFiles } from './book-file-import.ts';
import { type FeedEvent, FeedRefused, readOnixFeed } from './onix/feed-reader.ts';
import { type IdentifierDraft, type ProductDraft, readOnixProduct } from './onix/product.ts';
import { categoryCodes } from './onix/subjects.ts';
import { slugify } from './product-route.ts';
import { shownIsbn } from './shown-isbn.ts';

// The catalog import (issue 15): an ONIX feed read as a stream, its products written in
// batches. Each product is imported or refused as a unit: a batch is one transaction, and when
// one fails (two records claiming one ISBN), its records are written one by one, so the bad
// one is refused with its reason and the others land. The import's row is the report,
// updated after every batch so the Admin page can show it live.

export type ImportSource = 'cli' | 'admin' | 'seed';

export type ImportCounts = {
  records: number;
  created: number;
  updated: number;
  unchanged: number;
  withdrawn: number;
  refused: number;
  readBytes: number;
};

export type ImportReport = ImportCounts & {
  id: number;
  /** Book files the feed names (lower-case file name → product id), for attachBookFiles. */
  fileLinks: Map<string, number>;
  status: 'done' | 'failed';
  failure: MessageWording | null;
  totalBytes: number | null;
};

export type ImportOptions = {
  now: Date;
  onProgress?: (counts: ImportCounts & { totalBytes: number | null }) => void;
  /** Records per transaction. */
  batchSize?: number;
  /** Batches written at once, each on its own connection (PostgreSQL; 1 on PGlite). */
  writers?: number;
  /** Book files follow: a feed read to its end stays 'running' until finishImport. */
  filesFollow?: boolean;
};

const DEFAULT_BATCH = 1000;

export async function startImport(
  db: Queryable,
  input: {
    source: ImportSource;
    fileName: string;
    totalBytes: number | null;
    startedBy: number | null;
  },
): Promise<number> {
  const [row] = await db
    .insert(catalogImports)
    .values({
      source: input.source,
      fileName: input.fileName.slice(0, 300),
      totalBytes: input.totalBytes,
      startedBy: input.startedBy,
    })
    .returning({ id: catalogImports.id });
  return row!.id;
}

type Refusal = { reference: string | null; line: number | null; reason: MessageWording };

type Pending = {
  draft: ProductDraft;
  line: number;
  digest: string;
};

type DeleteRequest = { reference: string; identifiers: IdentifierDraft[]; line: number };

type Existing = { id: number; reference: string | null; digest: string | null; status: string };

// Raised when the reading of a record changes, so that a feed imported again is read again.
// 2: keywords are kept (migration 0024), so products imported before have theirs written.
// 3: what real feeds taught (session 23): the language of a multilingual edition or none
// ('und', not English), the imprint as publisher, a collection's part number beside its name,
// more page counts, plain-text descriptions with their paragraphs and entities.
const RULES_VERSION = 3;

/**
 * What decides whether a record changed: its XML as written, and what today makes of it (a
 * price that took effect, a publication date now past).
 */
function digestOf(xmlDigest: string, draft: ProductDraft): string {
  return createHash('sha256')
    .update(`${RULES_VERSION}|${xmlDigest}|${JSON.stringify(draft.price)}|${draft.saleStartsOn}`)
    .digest('base64url');
}

const dayStart = (day: string | null) => (day ? `${day}T00:00:00Z` : null);

/** Runs an import started by startImport over a feed; never throws for a bad feed. */
export async function runImport(
  db: Queryable,
  importId: number,
  input: AsyncIterable<Uint8Array | string>,
  options: ImportOptions,
): Promise<ImportReport> {
  const today = options.now.toISOString().slice(0, 10);
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const [meta] = await db
    .select({ totalBytes: catalogImports.totalBytes })
    .from(catalogImports)
    .where(eq(catalogImports.id, importId));
  const totalBytes = meta?.totalBytes ?? null;
  const counts: ImportCounts = {
    records: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    withdrawn: 0,
    refused: 0,
    readBytes: 0,
  };
  await ensureCategoryTree(db);
  const categoryIds = new Map(
    (await db.select({ code: categories.code, id: categories.id }).from(categories)).map((c) => [
      c.code,
      c.id,
    ]),
  );
  let header = { defaultCurrency: null as string | null, defaultLanguage: null as string | null };
  let refusalPosition = 0;
  let batch: (Pending | DeleteRequest)[] = [];
  // Records named in the batch being read.
  const references = new Set<string>();
  let refusals: Refusal[] = [];

  // Batches are written while the next ones are read: the feed's parsing (this process) and
  // the database's work (its own processes) overlap. Up to `writers` batches are written at
  // once, on their own connections; a batch that names a record an earlier batch still being
  // written names waits for it, so a record's versions land in the feed's order.
  const writers = Math.max(1, options.writers ?? 1);
  const inFlight: { done: Promise<void>; references: Set<string> }[] = [];
  const settle = async (entry: (typeof inFlight)[number]) => {
    await entry.done;
    const at = inFlight.indexOf(entry);
    if (at >= 0) inFlight.splice(at, 1);
  };
  const flush = async () => {
    const work = batch;
    const refused = refusals;
    const names = new Set(references);
    batch = [];
    refusals = [];
    references.clear();
    for (const entry of [...inFlight]) {
      if ([...names].some((name) => entry.references.has(name))) await settle(entry);
    }
    while (inFlight.length >= writers) await settle(inFlight[0]!);
    const entry = { done: write(work, refused), references: names };
    inFlight.push(entry);
    // A failed write (the database went away) fails the import at the next await.
    entry.done.catch(() => {});
  };
  const drainWrites = async () => {
    while (inFlight.length > 0) await settle(inFlight[0]!);
  };
  const write = async (work: (Pending | DeleteRequest)[], refused: Refusal[]) => {
    const readBytes = counts.readBytes;
    if (work.length > 0) {
      try {
        const result = await db.transaction((tx) => writeBatch(tx, work, categoryIds, options.now));
        add(result, refused);
      } catch {
        // One record spoils the batch: write them one by one to find it.
        for (const item of work) {
          try {
            const result = await db.transaction((tx) =>
              writeBatch(tx, [item], categoryIds, options.now),
            );
            add(result, refused);
          } catch (error) {
            if (process.env.DEBUG_IMPORT) console.error(error);
            const reference = 'draft' in item ? item.draft.recordReference : item.reference;
            refused.push({
              reference,
              line: item.line,
              reason: isUniqueViolation(error)
                ? { message: 'import.refused.identifierTaken' }
                : { message: 'import.refused.write' },
            });
          }
        }
      }
    }
    counts.refused += refused.length;
    await db.transaction(async (tx) => {
      if (refused.length > 0) {
        await tx.insert(catalogImportRefusals).values(
          refused.map((r) => ({
            importId,
            position: refusalPosition++,
            reference: r.reference?.slice(0, 200) ?? null,
            line: r.line,
            reason: r.reason.message,
            reasonValues: r.reason.values ?? null,
          })),
        );
      }
      await tx
        .update(catalogImports)
        .set({ ...counts, updatedAt: new Date() })
        .where(eq(catalogImports.id, importId));
    });
    options.onProgress?.({ ...counts, readBytes, totalBytes });
  };
  const fileLinks = new Map<string, number>();
  const add = (
    result: Partial<ImportCounts> & { refusals: Refusal[]; links?: [string, number][] },
    refused: Refusal[],
  ) => {
    for (const [name, id] of result.links ?? []) fileLinks.set(name, id);
    counts.created += result.created ?? 0;
    counts.updated += result.updated ?? 0;
    counts.unchanged += result.unchanged ?? 0;
    counts.withdrawn += result.withdrawn ?? 0;
    refused.push(...result.refusals);
  };

  const onEvent = async (event: FeedEvent) => {
    if (event.kind === 'header') {
      header = event.header;
      await db
        .update(catalogImports)
        .set({
          onixRelease: event.header.release,
          senderName: event.header.senderName?.slice(0, 300),
        })
        .where(eq(catalogImports.id, importId));
      return;
    }
    counts.records++;
    counts.readBytes = event.readBytes;
    if (event.kind === 'malformed') {
      refusals.push({
        reference: event.reference,
        line: event.line,
        reason: { message: 'import.refused.malformed', values: { line: event.line } },
      });
    } else {
      const outcome = readOnixProduct(event.product, { today, ...header });
      const reference =
        outcome.kind === 'upsert'
          ? outcome.draft.recordReference
          : outcome.kind === 'delete'
            ? outcome.recordReference
            : null;
      // A record met twice lands in order: the earlier one's batch is written first.
      if (reference && references.has(reference)) await flush();
      if (outcome.kind === 'refused') {
        refusals.push({ reference: outcome.reference, line: event.line, reason: outcome.reason });
      } else if (outcome.kind === 'delete') {
        references.add(outcome.recordReference);
        batch.push({
          reference: outcome.recordReference,
          identifiers: outcome.identifiers,
          line: event.line,
        });
      } else {
        references.add(outcome.draft.recordReference);
        batch.push({
          draft: outcome.draft,
          line: event.line,
          digest: digestOf(event.digest, outcome.draft),
        });
      }
    }
    if (batch.length + refusals.length >= batchSize) await flush();
  };

  let failure: MessageWording | null = null;
  try {
    for await (const event of readOnixFeed(input)) await onEvent(event);
    await flush();
    await drainWrites();
  } catch (error) {
    if (!(error instanceof FeedRefused)) {
      // The database went away, or the file could not be read to the end: the report says
      // the import stopped; importing the file again finishes it without duplicates.
      await db
        .update(catalogImports)
        .set({ status: 'failed', failure: 'import.feed.interrupted', finishedAt: new Date() })
        .where(eq(catalogImports.id, importId))
        .catch(() => {});
      throw error;
    }
    failure = error.reason;
    batch = [];
    await flush();
    await drainWrites();
  }
  const stillRunning = !failure && options.filesFollow === true;
  await db
    .update(catalogImports)
    .set({
      status: failure ? 'failed' : stillRunning ? 'running' : 'done',
      failure: failure?.message ?? null,
      failureValues: failure?.values ?? null,
      finishedAt: stillRunning ? null : new Date(),
      updatedAt: new Date(),
      ...counts,
    })
    .where(eq(catalogImports.id, importId));
  return {
    id: importId,
    status: failure ? 'failed' : 'done',
    failure,
    totalBytes,
    fileLinks,
    ...counts,
  };
}

// ---------------------------------------------------------------------------------------------
// Writing a batch

async function findExisting(
  tx: Queryable,
  references: string[],
  identifierValues: string[],
): Promise<{ byReference: Map<string, Existing>; byIdentifier: Map<string, Existing> }> {
  const byReference = new Map<string, Existing>();
  const byIdentifier = new Map<string, Existing>();
  if (references.length > 0) {
    const rows = rowsOf<Existing>(
      await tx.execute(sql`select id, record_reference as reference, source_digest as digest, status
        from products where record_reference in (select json_array_elements_text(${JSON.stringify(references)}::json))`),
    );
    for (const row of rows) byReference.set(row.reference!, row);
  }
  if (identifierValues.length > 0) {
    const rows = rowsOf<Existing & { value: string }>(
      await tx.execute(sql`select p.id, p.record_reference as reference, p.source_digest as digest,
          p.status, i.value
        from product_identifiers i join products p on p.id = i.product_id
        where i.value in (select json_array_elements_text(${JSON.stringify(identifierValues)}::json))
          and i.type in ('EISBN13', 'ISBN13', 'EISBN10', 'ISBN10')`),
    );
    for (const row of rows) byIdentifier.set(row.value, row);
  }
  return { byReference, byIdentifier };
}

function existingFor(
  found: Awaited<ReturnType<typeof findExisting>>,
  reference: string,
  identifiers: IdentifierDraft[],
): Existing | null {
  const byReference = found.byReference.get(reference);
  if (byReference) return byReference;
  for (const identifier of identifiers) {
    const byIdentifier = found.byIdentifier.get(identifier.value);
    // An ISBN of a product the store made itself, or of a record under another reference
    // (the publisher renumbered its records): the same product, updated.
    if (byIdentifier) return byIdentifier;
  }
  return null;
}

type ProductRow = Record<string, unknown>;

function productRow(item: Pending, id: number | null, now: Date): ProductRow {
  const d = item.draft;
  const hold = d.price.kind === 'hold' ? d.price.hold : null;
  return {
    id,
    record_reference: d.recordReference,
    source_digest: item.digest,
    touch_descriptive: d.blocks.descriptive || !d.partial,
    touch_collateral: d.blocks.collateral || !d.partial,
    touch_publishing: d.blocks.publishing || !d.partial,
    touch_supply: d.blocks.supply || !d.partial,
    title: d.title,
    subtitle: d.subtitle,
    slug: slugify(d.title),
    description: d.description,
    authors: d.authors,
    // The arrays themselves: a string here would be stored as a jsonb string, not an array.
    contributors: d.contributors,
    series: d.series,
    keywords: d.keywords,
    imprint: d.imprint,
    publisher: d.publisher,
    edition: d.editionNumber === null ? d.edition : null,
    edition_number: d.editionNumber,
    language_code: d.languageCode,
    num_pages: d.numPages,
    publication_date: d.publicationDate,
    publish_year: d.publicationDate ? Number(d.publicationDate.slice(0, 4)) : null,
    sale_starts_at: dayStart(d.saleStartsOn),
    sale_hold: hold,
    isbn_text: shownIsbn(d.identifiers) ?? '',
    product_file_type: d.fileType,
    supplier_item_id: d.supplierItemId,
    updated_at: now.toISOString(),
  };
}

const PRODUCT_COLUMNS = `id int, record_reference text, source_digest text,
  touch_descriptive boolean, touch_collateral boolean, touch_publishing boolean, touch_supply boolean,
  title text, subtitle text, slug text, description text, authors text, contributors jsonb,
  series text, keywords jsonb, imprint text, publisher text, edition text, edition_number smallint,
  language_code text, num_pages int, publication_date date, publish_year smallint,
  sale_starts_at timestamptz, sale_hold text, isbn_text text, product_file_type text,
  supplier_item_id text, updated_at timestamptz`;

async function writeBatch(
  tx: Queryable,
  work: (Pending | DeleteRequest)[],
  categoryIds: ReadonlyMap<string, number>,
  now: Date,
): Promise<Partial<ImportCounts> & { refusals: Refusal[]; links: [string, number][] }> {
  const refusals: Refusal[] = [];
  const references = work.map((w) => ('draft' in w ? w.draft.recordReference : w.reference));
  const identifierValues = work.flatMap((w) =>
    ('draft' in w ? w.draft.identifiers : w.identifiers).map((i) => i.value),
  );
  const found = await findExisting(tx, references, identifierValues);

  const inserts: Pending[] = [];
  const updates: { item: Pending; id: number }[] = [];
  const withdrawIds: number[] = [];
  const kept: [Pending, number][] = [];
  let unchanged = 0;
  for (const item of work) {
    if (!('draft' in item)) {
      const existing = existingFor(found, item.reference, item.identifiers);
      if (!existing) {
        refusals.push({
          reference: item.reference,
          line: item.line,
          reason: { message: 'import.refused.deleteUnknown' },
        });
      } else if (existing.status === 'withdrawn') unchanged++;
      else withdrawIds.push(existing.id);
      continue;
    }
    const existing = existingFor(found, item.draft.recordReference, item.draft.identifiers);
    if (!existing) {
      if (item.draft.partial && !item.draft.blocks.descriptive) {
        refusals.push({
          reference: item.draft.recordReference,
          line: item.line,
          reason: { message: 'import.refused.partialUnknown' },
        });
      } else inserts.push(item);
    } else if (existing.digest === item.digest && existing.status === 'active') {
      unchanged++;
      kept.push([item, existing.id]);
    } else updates.push({ item, id: existing.id });
  }

  const ids = new Map<Pending, number>();
  if (inserts.length > 0) {
    const rows = inserts.map((item) => productRow(item, null, now));
    const created = rowsOf<{ id: number; record_reference: string }>(
      await tx.execute(sql`insert into products (product_type, status, title, subtitle, slug,
          description, authors, contributors, series, keywords, imprint, publisher, edition,
          edition_number, language_code, num_pages, publication_date, publish_year,
          sale_starts_at, sale_hold, isbn_text, product_file_type, supplier_item_id,
          record_reference, source_digest, created_at, updated_at)
        select 'book', 'active', title, subtitle, slug, description, authors, contributors,
          series, keywords, imprint, publisher, edition, edition_number, language_code, num_pages,
          publication_date, publish_year, sale_starts_at, sale_hold, isbn_text,
          product_file_type, supplier_item_id, record_reference, source_digest, updated_at,
          updated_at
        from json_to_recordset(${JSON.stringify(rows)}::json) as r(${sql.raw(PRODUCT_COLUMNS)})
        returning id, record_reference`),
    );
    const byReference = new Map(created.map((c) => [c.record_reference, c.id]));
    for (const item of inserts) ids.set(item, byReference.get(item.draft.recordReference)!);
  }
  if (updates.length > 0) {
    const rows = updates.map(({ item, id }) => productRow(item, id, now));
    await tx.execute(sql`update products p set
        record_reference = r.record_reference,
        source_digest = r.source_digest,
        status = 'active',
        title = case when r.touch_descriptive then r.title else p.title end,
        subtitle = case when r.touch_descriptive then r.subtitle else p.subtitle end,
        slug = case when r.touch_descriptive then r.slug else p.slug end,
        authors = case when r.touch_descriptive then r.authors else p.authors end,
        contributors = case when r.touch_descriptive then r.contributors else p.contributors end,
        series = case when r.touch_descriptive then r.series else p.series end,
        keywords = case when r.touch_descriptive then r.keywords else p.keywords end,
        edition = case when r.touch_descriptive then r.edition else p.edition end,
        edition_number = case when r.touch_descriptive then r.edition_number else p.edition_number end,
        language_code = case when r.touch_descriptive then r.language_code else p.language_code end,
        num_pages = case when r.touch_descriptive then r.num_pages else p.num_pages end,
        product_file_type = case when r.touch_descriptive then r.product_file_type else p.product_file_type end,
        description = case when r.touch_collateral then r.description else p.description end,
        imprint = case when r.touch_publishing then r.imprint else p.imprint end,
        publisher = case when r.touch_publishing then r.publisher else p.publisher end,
        publication_date = case when r.touch_publishing then r.publication_date else p.publication_date end,
        publish_year = case when r.touch_publishing then r.publish_year else p.publish_year end,
        sale_starts_at = case when r.touch_publishing or r.touch_supply then r.sale_starts_at else p.sale_starts_at end,
        sale_hold = case when r.touch_supply then r.sale_hold else p.sale_hold end,
        isbn_text = case when r.isbn_text <> '' then r.isbn_text else p.isbn_text end,
        supplier_item_id = coalesce(r.supplier_item_id, p.supplier_item_id),
        updated_at = r.updated_at
      from json_to_recordset(${JSON.stringify(rows)}::json) as r(${sql.raw(PRODUCT_COLUMNS)})
      where p.id = r.id`);
    for (const { item, id } of updates) ids.set(item, id);
  }

  const written = [...ids.entries()];
  const updatedIds = new Set(updates.map((u) => u.id));
  if (written.length > 0) await writeChildren(tx, written, updatedIds, categoryIds);
  if (withdrawIds.length > 0) {
    // Withdrawn, not deleted: owners keep their access (issue 15).
    await tx.execute(sql`update products set status = 'withdrawn', updated_at = ${now.toISOString()}
      where id in (select json_array_elements_text(${JSON.stringify(withdrawIds)}::json)::int)`);
  }
  // The files the feed names, by their file name, for the book files sent with it.
  const links: [string, number][] = [];
  for (const [item, id] of [...written, ...kept]) {
    const named = item.draft.coverLink
      ? [...item.draft.fileLinks, item.draft.coverLink]
      : item.draft.fileLinks;
    for (const link of named) {
      links.push([link.split(/[/\\]/).pop()!.toLowerCase(), id]);
    }
  }
  return {
    created: inserts.length,
    updated: updates.length,
    unchanged,
    withdrawn: withdrawIds.length,
    refusals,
    links,
  };
}

/** Identifiers, categories, accessibility rows and the offering of written products. */
async function writeChildren(
  tx: Queryable,
  written: [Pending, number][],
  updatedIds: ReadonlySet<number>,
  categoryIds: ReadonlyMap<string, number>,
): Promise<void> {
  // A new product has no rows to replace: only updated ones are cleared first.
  const all = written.map(([, id]) => id).filter((id) => updatedIds.has(id));
  const identifiers = written.flatMap(([item, id]) =>
    item.draft.identifiers.map((i) => ({ product_id: id, type: i.type, value: i.value })),
  );
  // Only ISBNs come from the feed; the store's own identifiers (a PCARD) stay.
  if (all.length > 0) {
    await tx.execute(sql`delete from product_identifiers where product_id in (select json_array_elements_text(${JSON.stringify(all)}::json)::int)
      and type in ('EISBN13', 'ISBN13', 'EISBN10', 'ISBN10')`);
  }
  if (identifiers.length > 0) {
    await tx.execute(sql`insert into product_identifiers (product_id, type, value)
      select product_id, type, value from json_to_recordset(${JSON.stringify(identifiers)}::json)
      as r(product_id int, type text, value text)`);
  }

  const descriptive = written.filter(
    ([item]) => item.draft.blocks.descriptive || !item.draft.partial,
  );
  if (descriptive.length > 0) {
    const ids = descriptive.map(([, id]) => id).filter((id) => updatedIds.has(id));
    const categoryRows = descriptive.flatMap(([item, id]) =>
      categoryCodes(item.draft.subjects, (code) => categoryIds.has(code)).map((code, position) => ({
        product_id: id,
        category_id: categoryIds.get(code)!,
        position,
      })),
    );
    if (ids.length > 0) {
      const list = JSON.stringify(ids);
      await tx.execute(sql`delete from product_categories
        where product_id in (select json_array_elements_text(${list}::json)::int)`);
      // Only the feed's own statements: the EPUB's stay (issue 38).
      await tx.execute(sql`delete from product_features
        where product_id in (select json_array_elements_text(${list}::json)::int)
          and category = 'accessibility' and source is distinct from 'file'`);
    }
    if (categoryRows.length > 0) {
      await tx.execute(sql`insert into product_categories (product_id, category_id, position)
        select product_id, category_id, position from json_to_recordset(${JSON.stringify(categoryRows)}::json)
        as r(product_id int, category_id int, position smallint)`);
    }
    const featureRows = descriptive.flatMap(([item, id]) =>
      item.draft.accessibility.map((row, position) => ({
        product_id: id,
        category: 'accessibility',
        subcategory: row.subcategory,
        code: row.code,
        name: row.name,
        detail: row.detail,
        url: row.url,
        position,
      })),
    );
    if (featureRows.length > 0) {
      await tx.execute(sql`insert into product_features (product_id, category, subcategory, code,
          name, detail, url, position, source)
        select product_id, category, subcategory, code, name, detail, url, position, 'feed'
        from json_to_recordset(${JSON.stringify(featureRows)}::json)
        as r(product_id int, category text, subcategory text, code text, name text, detail text,
          url text, position smallint)`);
    }
  }

  const supplied = written.filter(([item]) => item.draft.blocks.supply || !item.draft.partial);
  if (supplied.length > 0) {
    const offers = supplied.map(([item, id]) => {
      const { price, format } = item.draft;
      const cents = price.kind === 'price' ? price.cents : price.kind === 'free' ? 0 : null;
      const digital = format === 'digital';
      return {
        product_id: id,
        type: digital ? 'digital' : 'physical',
        book_type: digital ? 'digital' : 'print',
        price_cents: cents,
        description:
          price.kind === 'free' ? 'Free' : digital ? 'Lifetime access' : 'New print copy',
        terms:
          price.kind === 'free'
            ? 'Free to read. Access does not expire.'
            : digital
              ? 'Access does not expire.'
              : 'Ships in 3 - 5 business days.',
      };
    });
    const ids = offers.map((o) => o.product_id);
    // The feed's price is the product's one offer of its kind; any other offering is retired
    // (kept, for the orders that name it).
    await tx.execute(sql`update offerings o set is_active = false
      where o.product_id in (select json_array_elements_text(${JSON.stringify(ids)}::json)::int) and o.is_active
        and not exists (select 1 from json_to_recordset(${JSON.stringify(offers)}::json)
          as r(product_id int, type text, price_cents int)
          where r.product_id = o.product_id and r.type = o.type and r.price_cents is not null)`);
    const priced = offers.filter((o) => o.price_cents !== null);
    if (priced.length > 0) {
      const json = JSON.stringify(priced);
      await tx.execute(sql`update offerings o set price_cents = r.price_cents, is_active = true,
          description = r.description, terms = r.terms
        from json_to_recordset(${json}::json) as r(product_id int, type text, price_cents int,
          description text, terms text)
        where o.id = (select min(id) from offerings x where x.product_id = r.product_id
          and x.type = r.type)`);
      await tx.execute(sql`insert into offerings (product_id, type, book_type, price_cents,
          description, terms, duration_days, is_rental, is_active)
        select r.product_id, r.type, r.book_type, r.price_cents, r.description, r.terms, null,
          false, true
        from json_to_recordset(${json}::json) as r(product_id int, type text, book_type text,
          price_cents int, description text, terms text)
        where not exists (select 1 from offerings x where x.product_id = r.product_id
          and x.type = r.type)`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The Admin page (issue 15): a manager's upload, the imports so far, one import's report.

/**
 * Starts the import of an uploaded feed: the file is kept in the store under the import's
 * number, and read from there while the request that sent it has long been answered. Returns
 * the import's id; its progress and report are in its row.
 */
export async function importUploadedFeed(
  db: Queryable,
  store: BookFileStore,
  upload: {
    fileName: string;
    localPath: string;
    bytes: number;
    userId: number;
    now: Date;
    /** Book files sent with the feed, attached once it is imported. */
    bookFiles: { fileName: string; localPath: string }[];
  },
  options: { writers: number; onError: (error: unknown) => void },
): Promise<number> {
  const id = await startImport(db, {
    source: 'admin',
    fileName: upload.fileName,
    totalBytes: upload.bytes,
    startedBy: upload.userId,
  });
  const storagePath = `imports/${id}.xml`;
  await store.adopt(storagePath, upload.localPath);
  // The book files wait beside the upload, out of the request's way, until the feed is in.
  const staging = path.join(path.dirname(upload.localPath), `import-${id}`);
  await mkdir(staging, { recursive: true });
  const files = await Promise.all(
    upload.bookFiles.map(async (file, n) => {
      const localPath = path.join(staging, `${n}-${path.basename(file.localPath)}`);
      await rename(file.localPath, localPath);
      return { fileName: file.fileName, localPath };
    }),
  );
  const stream = store.stream(storagePath) as unknown as AsyncIterable<Uint8Array>;
  void (async () => {
    try {
      const report = await runImport(db, id, stream, {
        now: upload.now,
        writers: options.writers,
        filesFollow: files.length > 0,
      });
      if (report.status === 'done' && files.length > 0) {
        try {
          await attachBookFiles(db, store, id, files, { fileLinks: report.fileLinks });
        } finally {
          await finishImport(db, id);
        }
      }
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  })().catch(options.onError);
  return id;
}

/** Marks an import whose book files are attached as done. */
export async function finishImport(db: Queryable, id: number): Promise<void> {
  await db
    .update(catalogImports)
    .set({ status: 'done', finishedAt: new Date(), updatedAt: new Date() })
    .where(eq(catalogImports.id, id));
}

// A batch takes a second or two and a book file less than a minute: an import that has not
// moved for this long died with the process that ran it.
const STALE_AFTER_MS = 15 * 60_000;

/** Says so of imports whose process died: failed, interrupted (importing again finishes them). */
export async function settleStaleImports(db: Queryable, now: Date): Promise<void> {
  await db
    .update(catalogImports)
    .set({ status: 'failed', failure: 'import.feed.interrupted', finishedAt: now, updatedAt: now })
    .where(
      and(
        eq(catalogImports.status, 'running'),
        lt(catalogImports.updatedAt, new Date(now.getTime() - STALE_AFTER_MS)),
      ),
    );
}

export type ImportSummary = {
  id: number;
  source: string;
  fileName: string;
  status: string;
  startedAt: Date;
  finishedAt: Date | null;
  startedBy: string | null;
  records: number;
  created: number;
  updated: number;
  unchanged: number;
  withdrawn: number;
  refused: number;
  filesAttached: number;
  filesRefused: number;
  /** Rows of the report's list: refused records, and refused or remarked book files. */
  notes: number;
  readBytes: number;
  totalBytes: number | null;
  onixRelease: string | null;
  senderName: string | null;
  failure: MessageWording | null;
};

const summaryColumns = {
  id: catalogImports.id,
  source: catalogImports.source,
  fileName: catalogImports.fileName,
  status: catalogImports.status,
  startedAt: catalogImports.startedAt,
  finishedAt: catalogImports.finishedAt,
  startedBy: users.email,
  records: catalogImports.records,
  created: catalogImports.created,
  updated: catalogImports.updated,
  unchanged: catalogImports.unchanged,
  withdrawn: catalogImports.withdrawn,
  refused: catalogImports.refused,
  filesAttached: catalogImports.filesAttached,
  filesRefused: catalogImports.filesRefused,
  notes: sql<number>`(select count(*)::int from catalog_import_refusals r where r.import_id = ${catalogImports.id})`,
  readBytes: catalogImports.readBytes,
  totalBytes: catalogImports.totalBytes,
  onixRelease: catalogImports.onixRelease,
  senderName: catalogImports.senderName,
  failure: catalogImports.failure,
  failureValues: catalogImports.failureValues,
};

type SummaryRow = Omit<ImportSummary, 'failure'> & {
  failure: string | null;
  failureValues: Record<string, string | number> | null;
};

function toSummary({ failure, failureValues, ...row }: SummaryRow): ImportSummary {
  return {
    ...row,
    failure: failure ? { message: failure, values: failureValues ?? undefined } : null,
  };
}

export const IMPORTS_PAGE_SIZE = 25;
export const REFUSALS_PAGE_SIZE = 100;

/** Imports, newest first, a page at a time. */
export async function recentImports(
  db: Queryable,
  page: number,
  now = new Date(),
): Promise<{ imports: ImportSummary[]; total: number }> {
  await settleStaleImports(db, now);
  const [rows, [total]] = await Promise.all([
    db
      .select(summaryColumns)
      .from(catalogImports)
      .leftJoin(users, eq(users.id, catalogImports.startedBy))
      .orderBy(desc(catalogImports.id))
      .limit(IMPORTS_PAGE_SIZE)
      .offset((page - 1) * IMPORTS_PAGE_SIZE),
    db.select({ n: count() }).from(catalogImports),
  ]);
  return { imports: rows.map(toSummary), total: total?.n ?? 0 };
}

export type RefusalRow = {
  position: number;
  kind: string;
  reference: string | null;
  line: number | null;
  reason: MessageWording;
};

/** One import and a page of what it refused; null when there is no such import. */
export async function importReport(
  db: Queryable,
  id: number,
  page: number,
  now = new Date(),
): Promise<{ summary: ImportSummary; refusals: RefusalRow[] } | null> {
  await settleStaleImports(db, now);
  const [row] = await db
    .select(summaryColumns)
    .from(catalogImports)
    .leftJoin(users, eq(users.id, catalogImports.startedBy))
    .where(eq(catalogImports.id, id));
  if (!row) return null;
  const refusals = await db
    .select()
    .from(catalogImportRefusals)
    .where(eq(catalogImportRefusals.importId, id))
    .orderBy(catalogImportRefusals.position)
    .limit(REFUSALS_PAGE_SIZE)
    .offset((page - 1) * REFUSALS_PAGE_SIZE);
  return {
    summary: toSummary(row),
    refusals: refusals.map((r) => ({
      position: r.position,
      kind: r.kind,
      reference: r.reference,
      line: r.line,
      reason: { message: r.reason, values: r.reasonValues ?? undefined },
    })),
  };
}
