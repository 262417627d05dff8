/**
 * Does this browser keep our cookies on this page? (spec 1 §1, the cookie-permission screen.)
 * No when it says cookies are off, when a cookie written here does not read back (Chromium
 * blocking a site's cookies still says navigator.cookieEnabled), and, in another site's frame
 * such as an LMS launch, until the page has been granted storage access. The test cookie is
 * SameSite=Lax like the session's, so a frame that would lose the session loses it too.
 */
export async function cookiesWork(): Promise<boolean> {
  const probe = `shelfmark_cookie_check=${Date.now()}`;
  try {
    // biome-ignore lint/suspicious/noDocumentCookie: what this checks is document.cookie itself (the Cookie Store API is not in every browser)
    document.cookie = `${probe};path=/;SameSite=Lax`;
    if (!navigator.cookieEnabled || !document.cookie.includes(probe)) return false;
    // biome-ignore lint/suspicious/noDocumentCookie: see above
    document.cookie = `${probe};path=/;max-age=0`;
  } catch {
    // A sandboxed document throws on document.cookie.
    return false;
  }
  if (window.self !== window.top && document.hasStorageAccess) {
    return document.hasStorageAccess().catch(() => false);
  }
  return true;
}
