// Language: the user's stored choice, then the LANG cookie, then Accept-Language, then en
// (DESIGN.md, Requests; spec 2 §9: languages en and fr-CA, default English).
export const LANGUAGES = ['en', 'fr-CA'] as const;
export type Locale = (typeof LANGUAGES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function resolveLocale(input: {
  userChoice?: string | null;
  cookie?: string | null;
  acceptLanguage?: string | null;
  allowed: readonly string[];
}): Locale {
  const allowed = input.allowed.filter(isLocale);
  const pick = (v: string | null | undefined) => (isLocale(v) && allowed.includes(v) ? v : null);
  return (
    pick(input.userChoice) ??
    pick(input.cookie) ??
    fromAcceptLanguage(input.acceptLanguage ?? '', allowed) ??
    DEFAULT_LOCALE
  );
}

/**
 * The stored language choice a signed-in request reads in: the person's own, or — acting
 * through Switch Account — the manager's, who is the one reading (decision 039).
 */
export function storedChoiceOf(
  user: {
    languageCode: string | null;
    isImpersonating: boolean;
    impersonatorLanguage?: string | null;
  } | null,
): string | null {
  if (!user) return null;
  return user.isImpersonating ? (user.impersonatorLanguage ?? null) : user.languageCode;
}

function fromAcceptLanguage(header: string, allowed: readonly Locale[]): Locale | null {
  const ranked = header
    .slice(0, 500)
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .filter((r) => r.tag && r.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    // Any French (fr, fr-FR, fr-CA) reads the fr-CA catalog; any English reads en.
    const match = allowed.find(
      (l) => l.toLowerCase() === tag || l.toLowerCase().split('-')[0] === tag.split('-')[0],
    );
    if (match) return match;
  }
  return null;
}

/** The footer's language button shows only when more than one language is allowed (spec 1 §2). */
export function showLanguagePicker(allowed: readonly string[]): boolean {
  return allowed.filter(isLocale).length > 1;
}
