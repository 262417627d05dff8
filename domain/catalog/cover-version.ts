import { sql } from 'drizzle-orm';
import { products } from '#db/schema/catalog.ts';
import { GENERATED_COVER_STYLE } from '#db/seed/content/cover-svg.ts';

/**
 * A product's cover version, the `v` of its cover addresses (cover-image.ts), as a column any
 * product query can select: 'p' and the publisher's image's sha256 when the catalog holds one
 * (issue 15), else 'g', the generated covers' style, and a digest of what the generated cover
 * is drawn from (title, authors, product type; its colours come from the id, which the address
 * already names). Whatever changes the picture changes the version; nothing else does.
 */
export const coverVersion = sql<string>`coalesce(
  'p' || left(${products.coverSha256}, 16),
  ${sql.raw(`'g${GENERATED_COVER_STYLE}'`)} || left(md5(${products.title} || '|' || ${products.authors} || '|' || ${products.productType}), 12)
)`;
