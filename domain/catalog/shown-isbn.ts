// spec 1 §3 Catalog item: the first identifier present in the order EISBN13, ISBN13, EISBN10,
// ISBN10, PCARD_13, PCARD_10 is shown as the ISBN.
export const SHOWN_ISBN_ORDER = [
  'EISBN13',
  'ISBN13',
  'EISBN10',
  'ISBN10',
  'PCARD_13',
  'PCARD_10',
] as const;

export function shownIsbn(identifiers: readonly { type: string; value: string }[]): string | null {
  for (const type of SHOWN_ISBN_ORDER) {
    const found = identifiers.find((i) => i.type === type);
    if (found) return found.value;
  }
  return null;
}
