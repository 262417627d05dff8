/**
 * spec 1 §1: the maintenance banner shows once; Dismiss is remembered through a locally stored
 * flag. The flag is a cookie of this browser, read by the server: the root loader leaves a
 * dismissed banner out of the page, so the first paint never shows it and the page reads no
 * storage at all (a first visit's first read of localStorage or document.cookie goes through
 * the browser process: 20–25 ms of the main thread in Lighthouse's traces, issue 13).
 * Anonymous pages are shared, so the flag is part of the page cache's key (server/app.ts) and
 * shared caches keep a copy per Cookie header.
 */
export const DISMISSED_BANNER_COOKIE_PREFIX = 'shelfmark_maintenance_dismissed_';

export const dismissedBannerCookie = (id: number) => `${DISMISSED_BANNER_COOKIE_PREFIX}${id}`;

/** Whether this browser dismissed banner `id` (`cookies` is the request's Cookie header). */
export function bannerDismissedIn(cookies: string, id: number): boolean {
  return `;${cookies.replace(/ /g, '')};`.includes(`;${dismissedBannerCookie(id)}=1;`);
}

/**
 * The banners a request's cookies say this browser dismissed, as one sorted text (the page
 * cache keeps a copy of an anonymous page per such text). Only well-formed flags count: any
 * other cookie of that prefix is not a dismissal and must not make a page of its own.
 */
export function dismissedBannersKey(cookies: ReadonlyMap<string, string>): string {
  const flag = new RegExp(`^${DISMISSED_BANNER_COOKIE_PREFIX}(\\d{1,10})$`);
  return [...cookies]
    .flatMap(([name, value]) => {
      const id = flag.exec(name)?.[1];
      return id !== undefined && value === '1' ? [Number(id)] : [];
    })
    .sort((a, b) => a - b)
    .join(',');
}
