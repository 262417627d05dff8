import { sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { bulkInsert, rowsOf } from '#db/seed/bulk-insert.ts';
import { flattenBisac } from './bisac.ts';

// The store's categories are the BISAC subject headings (spec 1 §3): reference data every
// store needs, with or without the demo. The demo seed writes them first; a store started
// without it gets them from its first catalog import, whose subjects would otherwise all be
// dropped (session 23: a real feed imported into an empty store kept no category).

const CATEGORY_TREE_LOCK_KEY = 7_310_002;

/** Writes the whole tree after any categories already there; returns each code's id. */
export async function insertCategoryTree(db: Queryable): Promise<Map<string, number>> {
  const [maxRow] = rowsOf<{ max: number }>(
    await db.execute(sql`select coalesce(max(id), 0)::int as max from categories`),
  );
  const base = maxRow?.max ?? 0;
  const flat = flattenBisac();
  const ids = new Map(flat.map((f, i) => [f.node.code, base + i + 1]));
  // Explicit ids: a parent's id is known before the parent row exists in this statement.
  await bulkInsert(
    db,
    'categories',
    [
      ['id', 'int'],
      ['code', 'text'],
      ['title', 'text'],
      ['title_fr_ca', 'text'],
      ['url_slug', 'text'],
      ['parent_id', 'int'],
      ['depth', 'smallint'],
    ],
    flat.map((f) => ({
      id: ids.get(f.node.code),
      code: f.node.code,
      title: f.node.title,
      title_fr_ca: f.node.titleFrCa,
      url_slug: f.node.slug,
      parent_id: f.parent ? ids.get(f.parent.code) : null,
      depth: f.depth,
    })),
    { overridingSystemValue: true },
  );
  await db.execute(
    sql`select setval(pg_get_serial_sequence('categories', 'id'), (select max(id) from categories))`,
  );
  // Statistics for the foreign-key checks of product_categories.
  await db.execute(sql`analyze categories`);
  return ids;
}

/** Writes the tree when the store has no category at all (two imports at once write it once). */
export async function ensureCategoryTree(db: Queryable): Promise<void> {
  const empty = async (q: Queryable) =>
    rowsOf<{ any: boolean }>(
      await q.execute(sql`select exists (select 1 from categories) as any`),
    )[0]?.any === false;
  if (!(await empty(db))) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CATEGORY_TREE_LOCK_KEY})`);
    if (await empty(tx)) await insertCategoryTree(tx);
  });
}
