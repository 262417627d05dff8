// spec 2 §9: search result descriptions 30 words, details 100 words, page markup 500 words.
export const CARD_DESCRIPTION_WORDS = 30;
export const DETAILS_DESCRIPTION_WORDS = 100;
export const MARKUP_DESCRIPTION_WORDS = 500;

export function truncateWords(text: string, words: number): string {
  const all = text.trim().split(/\s+/).filter(Boolean);
  if (all.length <= words) return all.join(' ');
  return `${all.slice(0, words).join(' ')}…`;
}
