import { DISMISSED_ATTRIBUTE, dismissedCookie } from './maintenance-banner.tsx';

/**
 * The first paint already knows the banner was dismissed (issue 13: it flashed back on every
 * full page load until React had read the stored flag). This script runs in <head>, before the
 * body is parsed: it marks <html>, and the stylesheet hides the banner until the component,
 * once hydrated, removes it. The Content-Security-Policy allows it by its hash, computed from
 * the rendered page like every inline script's (server/script-hashes.ts). Made by the root
 * loader, so the browser's JavaScript does not carry it.
 */
export function dismissedBannerScript(id: number): string {
  // The same test as dismissedIn, written out: this script is text, not a bundled module.
  return `try{(";"+document.cookie.replace(/ /g,"")+";").indexOf(";${dismissedCookie(id)}=1;")>=0&&document.documentElement.setAttribute("${DISMISSED_ATTRIBUTE}","")}catch(e){}`;
}
