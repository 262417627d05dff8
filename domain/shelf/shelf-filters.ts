// My Shelf's sort and Filter menus (spec 1 §2 Shelf, spec 2 §9). Their own module, free of
// queries: the shelf page's menus run in the browser, and my-shelf.ts reaches the database.

export const SHELF_SORTS = ['default', 'alphabetical_asc', 'alphabetical_desc'] as const;
export type ShelfSort = (typeof SHELF_SORTS)[number];
/** The product types the Filter menu offers (spec 2 §9 Product type mapping). */
export const SHELF_TYPES = [
  'book',
  'courseware',
  'classroom',
  'collection',
  'ebundle',
  'physical_product',
] as const;
export type ShelfType = (typeof SHELF_TYPES)[number];
