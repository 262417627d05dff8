import type { MenuItemId } from '#domain/accounts/navigation.ts';

// Issue 39: "A roster or billing upload is limited in size and streamed." A campus's paid file
// is one CSV line per student paid (a campus id and an amount, ~30 bytes): MAX_PAID_ROWS lines
// are about 1.5 MB, so 5 MB leaves room for wide exports with names and descriptions.
export const PAID_UPLOAD_LIMIT_BYTES = 5 * 1024 * 1024;

/** The limit as the page says it (whole megabytes). */
export const PAID_UPLOAD_LIMIT_MEGABYTES = PAID_UPLOAD_LIMIT_BYTES / (1024 * 1024);

/** The most paid lines read from one file (after its header line). */
export const MAX_PAID_ROWS = 50_000;

/** The menu items whose people bill the bursar (the pages and the upload's edge ask it). */
export const BILLING_TOOLS: readonly MenuItemId[] = ['courseManager', 'courseAdmin'];
