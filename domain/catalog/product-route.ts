// spec 1 §2 Search, cards and lists: the product card route is derived from the type name
// containing book, courseware, collection or classroom; anything else opens product-detail.
export function productPath(product: { id: number; productType: string; slug: string }): string {
  const type = product.productType;
  const base = type.includes('courseware')
    ? 'courseware'
    : type.includes('collection')
      ? 'collection'
      : type.includes('classroom')
        ? 'classroom'
        : type.includes('book') || type === 'ebundle'
          ? 'book'
          : null;
  return base ? `/${base}/${product.id}/${product.slug}` : `/product-detail/${product.id}`;
}

/** The URL slug of a title: ASCII letters and digits in kebab case ('product' when none). */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'product';
}
