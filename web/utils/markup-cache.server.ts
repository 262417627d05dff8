/**
 * Markup kept by what it is made of (its key, decision 043): a visitor moving from page to page,
 * or reloading one, gets a fragment the server composes without React rendering it again. At
 * most `max` are kept; when full, all are forgotten.
 */
export function markupCache(max = 2_000) {
  const kept = new Map<string, string>();
  return async (key: string, render: () => Promise<string>): Promise<string> => {
    const known = kept.get(key);
    if (known !== undefined) return known;
    const markup = await render();
    if (kept.size >= max) kept.clear();
    kept.set(key, markup);
    return markup;
  };
}
