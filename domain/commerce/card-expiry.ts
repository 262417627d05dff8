// A card's expiry as people type it (issue 20's walk: "1230" typed without the slash was
// refused): MM/YY or MM/YYYY, with or without the slash and spaces. Whether the month is real
// and the date still ahead is the payment gateway's answer, said on the card field.
const WITH_SLASH = /^(\d{1,2})\/(\d{2}|\d{4})$/;
const DIGITS_ONLY = /^(\d{2})(\d{2}|\d{4})$/;

export function parseCardExpiry(text: string): { month: number; year: number } | null {
  const compact = text.replace(/\s/g, '');
  const match = WITH_SLASH.exec(compact) ?? DIGITS_ONLY.exec(compact);
  if (!match) return null;
  return { month: Number(match[1]), year: Number(match[2]) };
}
