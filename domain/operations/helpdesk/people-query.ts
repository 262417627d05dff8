// Issue 39, the help desk's search box: what it may hold, without the database (the page's
// form checks it in the browser's bundle too; people-search.ts runs the query).

export const MAX_QUERY_LENGTH = 200;

/** What the search box may hold: a query is refused, never sent to the database, otherwise. */
export function queryProblem(q: string): string | null {
  if (q.length > MAX_QUERY_LENGTH) return 'ops.helpdesk.search.error.tooLong';
  // NUL, and other control characters, are in no name, address or campus id.
  if (/\p{Cc}/u.test(q)) return 'ops.helpdesk.search.error.invalid';
  return null;
}
