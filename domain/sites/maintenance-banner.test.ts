import { describe, expect, it } from 'vitest';
import { dismissedBannersKey, bannerDismissedIn as dismissedIn } from './maintenance-banner.ts';

// spec 1 §1: the maintenance banner shows once and stays dismissed through a locally stored
// flag (a cookie of this browser, which the server reads to leave the banner out).
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

  it('names the dismissed banners for the page cache, in order, and nothing else', () => {
    const key = (cookies: Record<string, string>) =>
      dismissedBannersKey(new Map(Object.entries(cookies)));
    expect(
      key({
        shelfmark_maintenance_dismissed_12: '1',
        shelfmark_maintenance_dismissed_3: '1',
        shelfmark_maintenance_dismissed_4: '0',
        shelfmark_maintenance_dismissed_x: '1',
        sid: 'abc',
      }),
    ).toBe('3,12');
    expect(key({})).toBe('');
  });
});
