import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { queryRows } from '#db/client.ts';
import { categories, productCategories, products } from '#db/schema/catalog.ts';
import type { Locale } from '#domain/accounts/language.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { NotFound } from '#domain/shared/errors.ts';
import { TimedCache } from '#domain/shared/timed-cache.ts';
import { cardColumns, toProductCards } from './product-cards.ts';
import type { ProductCard } from './types.ts';

export type CategoryLink = { id: number; title: string; urlSlug: string };
export type CategoryView = CategoryLink & { ancestors: CategoryLink[]; children: CategoryLink[] };

// A category's name in the page's language (issue 13): the French title on fr-CA pages where
// the category has one, else its title.
function titleIn(locale: Locale) {
  return locale === 'fr-CA'
    ? sql<string>`coalesce(${categories.titleFrCa}, ${categories.title})`
    : sql<string>`${categories.title}`;
}

function linkIn(locale: Locale) {
  return { id: categories.id, title: titleIn(locale), urlSlug: categories.urlSlug };
}

/** Categories in the alphabetical order of the page's language ('Économie' before 'Finance'). */
function inNameOrder(locale: Locale, links: CategoryLink[]): CategoryLink[] {
  const collator = new Intl.Collator(locale, { sensitivity: 'base' });
  return links.sort((a, b) => collator.compare(a.title, b.title));
}

export async function topCategories(ctx: RequestContext): Promise<CategoryLink[]> {
  const rows = await ctx.db
    .select(linkIn(ctx.locale))
    .from(categories)
    .where(isNull(categories.parentId));
  return inNameOrder(ctx.locale, rows);
}

/** A category by its URL slug with ancestors (root first) and children (spec 2 §7 Categories). */
export async function categoryBySlug(ctx: RequestContext, slug: string): Promise<CategoryView> {
  if (!/^[a-z0-9-]{1,120}$/.test(slug)) throw new NotFound();
  const [category] = await ctx.db
    .select({ ...linkIn(ctx.locale), parentId: categories.parentId })
    .from(categories)
    .where(eq(categories.urlSlug, slug))
    .limit(1);
  if (!category) throw new NotFound();
  const ancestors = category.parentId ? await categoryTrail(ctx, category.parentId) : [];
  const children = await ctx.db
    .select(linkIn(ctx.locale))
    .from(categories)
    .where(eq(categories.parentId, category.id));
  return {
    id: category.id,
    title: category.title,
    urlSlug: category.urlSlug,
    ancestors,
    children: inNameOrder(ctx.locale, children),
  };
}

/** A category and its ancestors, root first (the breadcrumb of spec 1 §2). */
export async function categoryTrail(
  ctx: RequestContext,
  categoryId: number,
): Promise<CategoryLink[]> {
  const rows = await queryRows<CategoryLink & { depth: number }>(
    ctx.db,
    sql`
    with recursive up as (
      select id, title, title_fr_ca, url_slug, parent_id, 0 as depth from ${categories} where id = ${categoryId}
      union all
      select c.id, c.title, c.title_fr_ca, c.url_slug, c.parent_id, up.depth + 1 from ${categories} c join up on c.id = up.parent_id
    )
    select id, ${ctx.locale === 'fr-CA' ? sql`coalesce(title_fr_ca, title)` : sql`title`} as title,
      url_slug as "urlSlug", depth
    from up order by depth desc`,
  );
  return rows.map(({ id, title, urlSlug }) => ({ id: Number(id), title, urlSlug }));
}

async function descendantIds(ctx: RequestContext, rootId: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    ctx.db,
    sql`
    with recursive down as (
      select id from ${categories} where id = ${rootId}
      union all
      select c.id from ${categories} c join down on c.parent_id = down.id
    )
    select id from down`,
  );
  return rows.map((r) => Number(r.id));
}

/**
 * 'Best Sellers' (order by sales) or 'Campus Favorites' (order by adoptions), optionally
 * within a category and its descendants (spec 1 §2 Browse page).
 */
// Best sellers and campus favourites move with orders and adoptions, not by the second: each
// process keeps a tray for a minute (DESIGN.md: counters, not computed per request).
const trayCache = new TimedCache<string, ProductCard[]>(60_000, 5_000, 'product lists');

export async function tray(
  ctx: RequestContext,
  input: {
    order: 'sales' | 'adoptions';
    categoryId?: number | null;
    limit?: number;
    excludeId?: number;
  },
): Promise<ProductCard[]> {
  const limit = input.limit ?? 8;
  const key = `${input.order}:${input.categoryId ?? 'all'}:${limit}`;
  // One more than shown, so that leaving out the current product still fills the tray.
  const cards = await trayCache.getOrLoad(key, () =>
    loadTray(ctx, input.order, input.categoryId ?? null, limit + 1),
  );
  return cards.filter((card) => card.id !== input.excludeId).slice(0, limit);
}

async function loadTray(
  ctx: RequestContext,
  order: 'sales' | 'adoptions',
  categoryId: number | null,
  limit: number,
): Promise<ProductCard[]> {
  const inCategory = categoryId
    ? inArray(
        products.id,
        ctx.db
          .select({ id: productCategories.productId })
          .from(productCategories)
          .where(inArray(productCategories.categoryId, await descendantIds(ctx, categoryId))),
      )
    : undefined;
  const rows = await ctx.db
    .select(cardColumns)
    .from(products)
    .where(and(eq(products.status, 'active'), eq(products.isDisabled, false), inCategory))
    .orderBy(
      order === 'sales' ? desc(products.salesCount) : desc(products.adoptionCount),
      products.id,
    )
    .limit(limit);
  return toProductCards(ctx.db, rows);
}
