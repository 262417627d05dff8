import { inject } from 'vitest';
import type { MadeUser, RedeemCodeRequest, UserRequest } from './fixture-server.ts';

export type { MadeUser, Persona } from './fixture-server.ts';

// Each journey's own data, so that journeys run in any order and at the same time (decision
// 015): a user made for it, in the place of a demo account or new, and a redeem code of its
// own. Made by the fixture server beside the app under test (fixture-server.ts).

async function call<T>(path: string, body: unknown): Promise<T> {
  const fixtures = inject('fixtures');
  if (!fixtures) {
    throw new Error(
      'this journey makes its own users: run it against the server the e2e setup starts, not E2E_BASE_URL',
    );
  }
  const response = await fetch(new URL(path, fixtures.url), {
    method: 'POST',
    headers: { Authorization: `Bearer ${fixtures.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (response.status !== 201) throw new Error(`fixture ${path}: ${answer.error}`);
  return answer as T;
}

/**
 * A user of this journey alone. `like: 'student'` is a new account in the place of
 * student@demo.test as the demo seeds it (same sections, orders and shelf, its own access
 * code); without `like`, an account in no section that owns nothing.
 */
export function makeUser(request: UserRequest = {}): Promise<MadeUser> {
  return call<MadeUser>('/users', request);
}

/** The journey's user buys this product (an ownership, as a paid order would give). */
export async function makeOwnership(
  email: string,
  productId: number,
  options: { endedDaysAgo?: number } = {},
): Promise<void> {
  await call('/ownerships', { email, productId, ...options });
}

/** The product id of an e-book of the demo's publisher feed (formula, chart, footnote). */
export async function feedEbook(): Promise<number> {
  return (await call<{ productId: number }>('/feed-ebook', {})).productId;
}

/** A demo feed e-book of three chapters that may be read offline whole (issue 16). */
export async function feedOfflineEbook(): Promise<number> {
  return (await call<{ productId: number }>('/feed-ebook-offline', {})).productId;
}

/** A demo PDF e-book of three pages, one of which may be read offline (issue 16). */
export async function pdfOfflineEbook(): Promise<number> {
  return (await call<{ productId: number }>('/pdf-offline', {})).productId;
}

/** The product id of the demo feed's fixed-layout picture book (issue 16). */
export async function feedPictureBook(): Promise<number> {
  return (await call<{ productId: number }>('/feed-picture-book', {})).productId;
}

/**
 * A redeem code of this journey alone, for the product the demo code gives; expired, or
 * ending in `suffix`, when asked (issue 19).
 */
export async function makeRedeemCode(request: RedeemCodeRequest = {}): Promise<string> {
  return (await makeRedeemCodeFor(request)).code;
}

/** A redeem code of the journey's own and the title it unlocks (issue 38). */
export function makeRedeemCodeFor(
  request: RedeemCodeRequest = {},
): Promise<{ code: string; title: string }> {
  return call('/redeem-codes', request);
}

/** Issue 20: an organisation of this journey alone, without campus sign-in. */
export function makeOrganization(): Promise<{ id: number; title: string }> {
  return call('/organizations', {});
}

/** Issue 37: a campus of this journey alone, signing in at its own SAML IdP. */
export function makeSamlCampus(
  request: import('./campus-fixture.ts').SamlCampusRequest,
): Promise<{ title: string }> {
  return call('/saml-campus', request);
}

/** Issue 20: a campus of this journey alone, signing in at its own OpenID provider. */
export function makeCampus(request: {
  issuer: string;
  clientId: string;
}): Promise<import('./campus-fixture.ts').MadeCampus> {
  return call('/campus', request);
}

/** Issue 39: a campus with a running term, sections and students, and its bookstore manager. */
export function makeDashboardCampus(): Promise<import('./dashboard-fixture.ts').DashboardCampus> {
  return call('/dashboard-campus', {});
}
/** My Inventory: a print copy of the journey's own with `stock` counted units. */
export function makeCountedCopy(
  stock: number,
): Promise<{ offeringId: number; productId: number; title: string; isbn: string }> {
  return call('/counted-copy', { stock });
}
/** Issue 39: a term to bill, of the journey's own, in this staff member's organisation. */
export function makeBillingTerm(
  email: string,
): Promise<{ termId: number; title: string; course: string }> {
  return call('/billing-term', { email });
}
