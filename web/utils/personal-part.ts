import { useSyncExternalStore } from 'react';
import type { MenuGroup } from '#domain/accounts/navigation.ts';

// A logged-in visitor's page may be the stored anonymous page plus a small personal part
// (decision 043): the server puts that part in the document as JSON, in a data block the
// browser never runs (`<script type="application/json" id="personal-part">`), and writes the
// navbar's account area and cart count into the page (server/personal-splice.ts). Components
// read the part through `usePersonalPart`: while the page hydrates it is null, so the tree
// matches the anonymous markup React Router's data describes; right after, it is the visitor's.

/** The element's id in the document, and the marker of the navbar's spliced area. */
export const PERSONAL_PART_ID = 'personal-part';
export const PERSONAL_SLOT_ATTRIBUTE = 'data-personal-slot';

/** The shell's personal facts (the root loader's, decided by web/root-personal.server.ts). */
export type RootPersonal = {
  csrfToken: string | null;
  showCart: boolean;
  /** timeZone: the account's (IANA); dates are shown in it (time is UTC in the database). */
  user: {
    firstName: string;
    timeZone: string;
    menu: MenuGroup[];
    /** Issue 39, Switch Account: the name of the person a manager is acting as, else null. */
    actingAs: string | null;
  } | null;
};

export type PersonalPart = {
  root: RootPersonal;
  /** The page route's personal facts (a product page's: web/routes/product-personal.server.ts). */
  page: unknown;
  /** How many items the cart holds, for the navbar's first paint; the browser asks again. */
  cartCount: number | null;
};

let known: PersonalPart | null | undefined;

function readPart(): PersonalPart | null {
  if (known !== undefined) return known;
  const element =
    typeof document === 'undefined' ? null : document.getElementById(PERSONAL_PART_ID);
  try {
    known = element?.textContent ? (JSON.parse(element.textContent) as PersonalPart) : null;
  } catch {
    known = null;
  }
  return known;
}

const unchanging = () => () => undefined;
const none = () => null;

/**
 * The personal part the document was composed with, or null: on the server, while the page
 * hydrates (so the first render matches the anonymous page), and on a page rendered whole.
 */
export function usePersonalPart(): PersonalPart | null {
  return useSyncExternalStore(unchanging, readPart, none);
}

/** Whether this document was composed from a stored page (its navbar area was spliced). */
export function isComposedDocument(): boolean {
  return readPart() !== null;
}

/**
 * The loader data the document was rendered with, one object per route: the part applies to
 * those only. Data loaded since (a client navigation, a revalidation after a write) is already
 * the visitor's, from their own loader call.
 */
const composedData = new Map<string, object>();
/** Each key's data with the part applied, made once: effects that name it run once. */
const appliedData = new Map<string, unknown>();

/**
 * A route's loader data with the personal part applied, when it is the data the document was
 * composed with; `apply` merges the part into it (one function per route, beside its loader).
 */
export function usePersonalData<T, P>(
  key: 'root' | 'page',
  data: T,
  apply: (data: T, part: P) => T,
): T {
  const part = usePersonalPart();
  if (data === null || typeof data !== 'object' || !isComposedDocument()) return data;
  if (!composedData.has(key)) composedData.set(key, data);
  if (!part || composedData.get(key) !== data) return data;
  const personal = key === 'root' ? part.root : part.page;
  if (!personal) return data;
  if (!appliedData.has(key)) appliedData.set(key, apply(data, personal as P));
  return appliedData.get(key) as T;
}

/** For tests: forget the document's part. */
export function forgetPersonalPart(): void {
  known = undefined;
  composedData.clear();
  appliedData.clear();
}
