import type { MenuItemId } from '#domain/accounts/navigation.ts';

// Issue 39: "A roster upload is limited in size and streamed." A OneRoster package of a large
// campus (50,000 enrolments) is a few MB zipped; 200 MB leaves room for the largest.
export const ROSTER_UPLOAD_LIMIT_BYTES = 200 * 1024 * 1024;

/** The menu items whose people may import rosters (the page and the upload's edge ask it). */
export const ROSTER_IMPORT_TOOLS: readonly MenuItemId[] = ['courseManager', 'courseAdmin'];

/** Report rows a page shows; the CSV has them all. */
export const REPORT_PAGE_SIZE = 200;
