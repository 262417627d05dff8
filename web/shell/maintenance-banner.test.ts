import { describe, expect, it } from 'vitest';
import { dismissedBannerScript } from './maintenance-banner.server.ts';
import { DISMISSED_ATTRIBUTE, dismissedIn } from './maintenance-banner.tsx';

// spec 1 §1: the maintenance banner shows once and stays dismissed through a locally stored
// flag (a cookie of this browser, read by the page, never by the server).
describe('the maintenance banner dismissed flag', () => {
  it('is this banner’s own cookie, set to 1, among the others', () => {
    expect(dismissedIn('shelfmark_maintenance_dismissed_7=1', 7)).toBe(true);
    expect(dismissedIn('a=b; shelfmark_maintenance_dismissed_7=1; c=d', 7)).toBe(true);
    expect(dismissedIn('', 7)).toBe(false);
    expect(dismissedIn('shelfmark_maintenance_dismissed_7=1', 8)).toBe(false);
    expect(dismissedIn('shelfmark_maintenance_dismissed_77=1', 7)).toBe(false);
    expect(dismissedIn('xshelfmark_maintenance_dismissed_7=1', 7)).toBe(false);
    expect(dismissedIn('shelfmark_maintenance_dismissed_7=0', 7)).toBe(false);
  });

  it('is read by the head script the same way', () => {
    const run = (cookie: string) => {
      const marks: string[] = [];
      const document = {
        cookie,
        documentElement: { setAttribute: (name: string) => marks.push(name) },
      };
      new Function('document', dismissedBannerScript(7))(document);
      return marks;
    };
    expect(run('a=b; shelfmark_maintenance_dismissed_7=1')).toEqual([DISMISSED_ATTRIBUTE]);
    expect(run('shelfmark_maintenance_dismissed_77=1')).toEqual([]);
    expect(run('')).toEqual([]);
  });
});
