/**
 * What a stored public page needs to be composed for a logged-in visitor (decision 043): the
 * shell's personal part always, and the page's own, named here with what it is computed from.
 * Kept with the stored page (server/page-cache.ts); web/utils/personal-part.server.ts computes it.
 */
export type PersonalRecipe = { page: 'shell' } | { page: 'product'; productId: number };
