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
