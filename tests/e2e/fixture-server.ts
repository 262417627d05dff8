import { randomInt, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, desc, eq, inArray, isNull, like } from 'drizzle-orm';
import type { Database } from '#db/client.ts';
import { accessCodes, redeemCodes } from '#db/schema/access.ts';
import { accountFlags, userRoles, users } from '#db/schema/accounts.ts';
import { bookFiles, offerings, productIdentifiers, products } from '#db/schema/catalog.ts';
import {
  orderItems,
  orders,
  orderTransitions,
  payments,
  testGatewayPayments,
} from '#db/schema/commerce.ts';
import { sectionMembers } from '#db/schema/courses.ts';
import { totpAuthenticators } from '#db/schema/second-factor.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_REDEEM_CODE } from '#db/seed/accounts.ts';
import { PICTURE_BOOK_POSITION } from '#db/seed/publisher-feed.ts';

/** The demo feed's e-book the offline test reads (not the first, not the picture book). */
const OFFLINE_BOOK_POSITION = PICTURE_BOOK_POSITION + 1;

import { redeemCodeDigest } from '#domain/access/redeem.ts';
import { isbn13CheckDigit } from '#domain/catalog/isbn.ts';
import { makeBillingTerm } from './billing-fixture.ts';
import {
  isCampusRequest,
  isSamlCampusRequest,
  makeCampus,
  makeOrganization,
  makeSamlCampus,
} from './campus-fixture.ts';
import { makeDashboardCampus } from './dashboard-fixture.ts';

const DAY_MS = 86_400_000;

let countedCopies = 0;

/** A printed book of its own with one print offering of `stock` counted units (My Inventory). */
async function makeCountedCopy(
  db: Database,
  stock: number,
): Promise<{ offeringId: number; productId: number; title: string; isbn: string }> {
  countedCopies += 1;
  const body = `979${String(randomInt(10 ** 8)).padStart(8, '0')}${countedCopies % 10}`;
  const isbn = body + isbn13CheckDigit(body);
  const title = `Counted copy ${countedCopies} ${randomInt(10 ** 6)}`;
  return db.transaction(async (tx) => {
    const [product] = await tx
      .insert(products)
      .values({
        productType: 'book',
        title,
        slug: `counted-copy-${countedCopies}`,
        isbnText: isbn,
        publisher: 'Journey Press',
      })
      .returning({ id: products.id });
    await tx
      .insert(productIdentifiers)
      .values({ productId: product!.id, type: 'ISBN13', value: isbn });
    const [offering] = await tx
      .insert(offerings)
      .values({
        productId: product!.id,
        type: 'physical',
        bookType: 'print',
        priceCents: 5400,
        stock,
      })
      .returning({ id: offerings.id });
    return { offeringId: offering!.id, productId: product!.id, title, isbn };
  });
}

// The browser journeys' own data (decision 015), made in the process that owns the app's
// database: a small HTTP server on 127.0.0.1, started beside the app by app-process.ts, never
// part of the production server. Workers call it through fixtures.ts.

/** A demo account by the first part of its e-mail (README, "Demo accounts"). */
export type Persona =
  | 'student'
  | 'instructor'
  | 'ta'
  | 'bookstore'
  | 'manager'
  | 'neweula'
  | 'coursemanager'
  | 'lakeshore'
  | 'support';
export const PERSONAS = DEMO_ACCOUNTS.map((a) => a.email.split('@')[0]) as Persona[];

export type MadeUser = {
  id: number;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
};

export type UserRequest = {
  /**
   * A new account in the place of this demo account as the demo seeds it: its organisation,
   * flags, roles, names and EULA state; its course sections (role, opting, course fee); its
   * orders and what it owns, with a courseware access code of its own. Nothing it did since
   * (language, cart, sessions, reading) comes along. Without it: an account of the demo
   * student's organisation in no section, owning nothing.
   */
  like?: Persona;
  /** Goes into the e-mail address, to tell whose account it is in a log. */
  label?: string;
  /**
   * false: without the demo managers' authenticator (issue 20), so that a manager made like
   * them must enrol at their first sign-in.
   */
  secondFactor?: boolean;
};

let made = 0;

export async function makeUser(db: Database, request: UserRequest): Promise<MadeUser> {
  const persona = request.like ?? 'student';
  if (!PERSONAS.includes(persona)) throw new RangeError(`no demo account '${persona}'`);
  const label = (request.label ?? persona)
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .slice(0, 40);
  made += 1;
  const email = `${label}-${made}@e2e.test`;
  return db.transaction(async (tx) => {
    const [source] = await tx
      .select()
      .from(users)
      .where(eq(users.email, `${persona}@demo.test`));
    if (!source) throw new Error(`the demo account ${persona}@demo.test is missing`);
    const { id: sourceId, ...account } = source;
    const [user] = await tx
      .insert(users)
      .values({ ...account, email, languageCode: null })
      .returning({ id: users.id });
    const userId = user!.id;
    const person: MadeUser = {
      id: userId,
      email,
      password: DEMO_PASSWORD,
      firstName: account.firstName,
      lastName: account.lastName,
    };
    const [flags] = await tx.select().from(accountFlags).where(eq(accountFlags.userId, sourceId));
    await tx.insert(accountFlags).values({ ...flags, userId });
    const roles = await tx.select().from(userRoles).where(eq(userRoles.userId, sourceId));
    if (roles.length > 0) await tx.insert(userRoles).values(roles.map((r) => ({ ...r, userId })));
    // The demo managers' authenticator (the demo key) comes along: logIn answers its code.
    const [totp] = await tx
      .select()
      .from(totpAuthenticators)
      .where(eq(totpAuthenticators.userId, sourceId));
    if (totp && request.secondFactor !== false)
      await tx.insert(totpAuthenticators).values({ ...totp, userId, lastUsedStep: null });
    if (!request.like) return person;

    const members = await tx
      .select()
      .from(sectionMembers)
      .where(eq(sectionMembers.userId, sourceId));
    if (members.length > 0) {
      await tx.insert(sectionMembers).values(
        members.map(({ id: _, ...m }) => ({
          ...m,
          userId,
          rsCoursememberId: `${m.rsCoursememberId}-u${userId}`,
        })),
      );
    }

    // Orders with their lines, history and payment, each under a new id.
    const orderIds = new Map<string, string>();
    for (const { id: oldId, ...order } of await tx
      .select()
      .from(orders)
      .where(eq(orders.userId, sourceId))) {
      const [copy] = await tx
        .insert(orders)
        .values({ ...order, userId })
        .returning({ id: orders.id });
      orderIds.set(oldId, copy!.id);
    }
    const old = [...orderIds.keys()];
    const newOrder = (id: string) => orderIds.get(id)!;
    if (old.length > 0) {
      const items = await tx.select().from(orderItems).where(inArray(orderItems.orderId, old));
      await tx
        .insert(orderItems)
        .values(items.map(({ id: _, ...i }) => ({ ...i, orderId: newOrder(i.orderId) })));
      const moves = await tx
        .select()
        .from(orderTransitions)
        .where(inArray(orderTransitions.orderId, old));
      await tx
        .insert(orderTransitions)
        .values(moves.map(({ id: _, ...t }) => ({ ...t, orderId: newOrder(t.orderId) })));
      const paid = await tx.select().from(payments).where(inArray(payments.orderId, old));
      if (paid.length > 0) {
        await tx.insert(payments).values(
          paid.map(({ id: _, ...p }) => ({
            ...p,
            orderId: newOrder(p.orderId),
            gatewayRef: `${p.gatewayRef}-u${userId}`,
          })),
        );
        // Its charges at the test gateway too, so that they can be refunded (issue 39).
        const charged = paid.filter((p) => p.gateway === 'test' && p.status === 'succeeded');
        if (charged.length > 0) {
          await tx.insert(testGatewayPayments).values(
            charged.map((p) => ({
              ref: `${p.gatewayRef}-u${userId}`,
              idempotencyKey: `${p.gatewayRef}-u${userId}`,
              orderId: newOrder(p.orderId),
              amountCents: p.amountCents,
              status: 'succeeded',
              cardBrand: p.cardBrand,
              cardLast4: p.cardLast4,
            })),
          );
        }
      }
    }

    const owned = await tx
      .select()
      .from(ownerships)
      .where(and(eq(ownerships.userId, sourceId), isNull(ownerships.revokedAt)));
    if (owned.length > 0) {
      await tx.insert(ownerships).values(
        owned.map(({ id: _, ...o }) => ({
          ...o,
          userId,
          orderId: o.orderId ? newOrder(o.orderId) : null,
        })),
      );
    }
    // A code of its own, not one of the pool that a purchase in a journey draws from.
    const codes = await tx
      .select()
      .from(accessCodes)
      .where(eq(accessCodes.assignedUserId, sourceId));
    if (codes.length > 0) {
      await tx.insert(accessCodes).values(
        codes.map(({ id: _, ...c }) => ({
          ...c,
          code: accessCode(),
          assignedUserId: userId,
          orderId: c.orderId ? newOrder(c.orderId) : null,
        })),
      );
    }
    return person;
  });
}

function accessCode(): string {
  // The seed's alphabet: no 0/O or 1/I.
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const group = () =>
    Array.from({ length: 4 }, () => alphabet[randomInt(alphabet.length)]).join('');
  return `${group()}-${group()}-${group()}`;
}

/**
 * Issue 19: an expired code, or one ending in `suffix` (digits 0 and 1 a typist may read as
 * the letters O and I; the generated part has none of them). Issue 38: `code`, the whole code,
 * for a twin of another code that reads like it (O for 0).
 */
export type RedeemCodeRequest = { expired?: boolean; suffix?: string; code?: string };

/**
 * A redeem code of its own, for what the demo code gives (the same product, duration and
 * expiry), so that redeeming it uses up nothing another journey needs.
 */
export async function makeRedeemCode(
  db: Database,
  accessCodeKey: string,
  { expired = false, suffix = '', code: given }: RedeemCodeRequest = {},
): Promise<string> {
  const [demo] = await db
    .select()
    .from(redeemCodes)
    .where(eq(redeemCodes.codeDigest, redeemCodeDigest(accessCodeKey, DEMO_REDEEM_CODE)));
  if (!demo) throw new Error('the demo redeem code is missing');
  const code = given ?? `E2E-${accessCode()}${suffix}`;
  const { id: _, redeemedAt: _at, redeemedByUserId: _by, ...rest } = demo;
  await db.insert(redeemCodes).values({
    ...rest,
    ...(expired ? { expiresAt: new Date(Date.now() - 86_400_000) } : {}),
    codeDigest: redeemCodeDigest(accessCodeKey, code),
    codeLast4: code.slice(-4),
    createdAt: new Date(),
  });
  return code;
}

export type FixtureServer = { url: string; close(): Promise<void> };

/**
 * Listens on 127.0.0.1 (a port of the system's choice) for POST /users and POST /redeem-codes,
 * each with `Authorization: Bearer <token>`; answers 201 with JSON, or 4xx/500 with the reason.
 */
export async function startFixtureServer(options: {
  db: Database;
  accessCodeKey: string;
  token: string;
}): Promise<FixtureServer> {
  const expected = Buffer.from(`Bearer ${options.token}`);
  const server = createServer((req, res) => {
    void answer(req, res).catch((error: unknown) => {
      send(res, 500, { error: error instanceof Error ? error.message : String(error) });
    });
  });
  async function answer(req: IncomingMessage, res: ServerResponse) {
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return send(res, 401, { error: 'fixture token missing or wrong' });
    }
    if (req.method !== 'POST') return send(res, 405, { error: 'POST only' });
    const body = await readJson(req);
    if (req.url === '/users') {
      const { like, label, secondFactor } = body;
      if (like !== undefined && !PERSONAS.includes(like as Persona)) {
        return send(res, 400, { error: `like: one of ${PERSONAS.join(', ')}` });
      }
      if (label !== undefined && typeof label !== 'string') {
        return send(res, 400, { error: 'label: a string' });
      }
      if (secondFactor !== undefined && typeof secondFactor !== 'boolean') {
        return send(res, 400, { error: 'secondFactor: a boolean' });
      }
      return send(
        res,
        201,
        await makeUser(options.db, { like: like as Persona, label, secondFactor }),
      );
    }
    if (req.url === '/ownerships') {
      // A purchase of one product by a user this journey made (issue 14: owned courseware).
      // `endedDaysAgo`: a rental that ended that many days ago (issue 16: its date in words).
      const { email, productId, endedDaysAgo } = body;
      if (typeof email !== 'string' || !email.endsWith('@e2e.test')) {
        return send(res, 400, { error: 'email: a user made by a journey' });
      }
      if (!Number.isInteger(productId)) return send(res, 400, { error: 'productId: an integer' });
      if (
        endedDaysAgo !== undefined &&
        !(Number.isInteger(endedDaysAgo) && (endedDaysAgo as number) >= 1)
      ) {
        return send(res, 400, { error: 'endedDaysAgo: a whole number of days, at least 1' });
      }
      const [user] = await options.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, email));
      if (!user) return send(res, 404, { error: 'no such user' });
      await options.db.insert(ownerships).values({
        userId: user.id,
        productId: productId as number,
        source: 'purchase',
        startsAt: new Date(Date.now() - 60_000 - ((endedDaysAgo as number) ?? 0) * 2 * DAY_MS),
        expiresAt:
          endedDaysAgo === undefined
            ? null
            : new Date(Date.now() - (endedDaysAgo as number) * DAY_MS),
      });
      return send(res, 201, { ok: true });
    }
    if (req.url === '/feed-ebook' || req.url === '/feed-picture-book') {
      // An e-book of the demo's publisher feed (db/seed/publisher-feed.ts, ISBNs 979-8-9…): the
      // first has a formula, a chart and a footnote; the picture book is the feed's e-book at
      // PICTURE_BOOK_POSITION, a fixed-layout EPUB (issue 16).
      const [book] = await options.db
        .select({ id: products.id })
        .from(products)
        .where(and(like(products.isbnText, '97989%'), eq(products.productFileType, 'EPUB')))
        .orderBy(products.id)
        .offset(req.url === '/feed-ebook' ? 0 : PICTURE_BOOK_POSITION)
        .limit(1);
      if (!book) return send(res, 404, { error: `no ${req.url.slice(1)} in the demo feed` });
      return send(res, 201, { productId: book.id });
    }
    if (req.url === '/feed-ebook-offline') {
      // Issue 16, offline reading: the feed's third e-book (a textbook of three chapters, used
      // by no other test), its publisher allowing all of it offline.
      const [book] = await options.db
        .select({ id: products.id })
        .from(products)
        .where(and(like(products.isbnText, '97989%'), eq(products.productFileType, 'EPUB')))
        .orderBy(products.id)
        .offset(OFFLINE_BOOK_POSITION)
        .limit(1);
      if (!book) return send(res, 404, { error: 'no offline e-book in the demo feed' });
      await options.db
        .update(products)
        .set({ drmOfflinePercent: '100' })
        .where(eq(products.id, book.id));
      return send(res, 201, { productId: book.id });
    }
    if (req.url === '/pdf-offline') {
      // Issue 16, offline reading of a PDF: the demo catalog's last PDF e-book (three pages,
      // used by no other test), its publisher allowing a third of it (one page) offline.
      const [book] = await options.db
        .select({ id: products.id })
        .from(products)
        .innerJoin(bookFiles, eq(bookFiles.productId, products.id))
        .where(
          and(
            eq(bookFiles.type, 'READER'),
            eq(bookFiles.extension, 'pdf'),
            eq(products.status, 'active'),
            eq(products.productFileType, 'PDF'),
          ),
        )
        .orderBy(desc(products.id))
        .limit(1);
      if (!book) return send(res, 404, { error: 'no PDF e-book in the demo catalog' });
      await options.db
        .update(products)
        .set({ drmOfflinePercent: '34' })
        .where(eq(products.id, book.id));
      return send(res, 201, { productId: book.id });
    }
    if (req.url === '/redeem-codes') {
      const { expired, suffix, code } = body;
      if (expired !== undefined && typeof expired !== 'boolean') {
        return send(res, 400, { error: 'expired: a boolean' });
      }
      if (suffix !== undefined && (typeof suffix !== 'string' || !/^[\w-]{0,12}$/.test(suffix))) {
        return send(res, 400, { error: 'suffix: up to 12 letters, digits or hyphens' });
      }
      if (code !== undefined && (typeof code !== 'string' || !/^E2E-[\w-]{4,40}$/.test(code))) {
        return send(res, 400, { error: 'code: E2E- and up to 40 letters, digits or hyphens' });
      }
      const made = await makeRedeemCode(options.db, options.accessCodeKey, {
        expired,
        suffix,
        code,
      });
      // What it unlocks, for the journey to find on the page (issue 38).
      const [product] = await options.db
        .select({ title: products.title })
        .from(products)
        .innerJoin(redeemCodes, eq(redeemCodes.productId, products.id))
        .where(eq(redeemCodes.codeDigest, redeemCodeDigest(options.accessCodeKey, made)));
      return send(res, 201, { code: made, title: product?.title ?? '' });
    }
    if (req.url === '/campus') {
      // Issue 20: a campus signing in at the journey's own OpenID provider (campus-fixture.ts).
      if (!isCampusRequest(body)) return send(res, 400, { error: 'issuer (127.0.0.1), clientId' });
      return send(res, 201, await makeCampus(options.db, body));
    }
    if (req.url === '/saml-campus') {
      // Issue 37: a campus signing in at the journey's own SAML IdP (campus-fixture.ts).
      if (!isSamlCampusRequest(body)) {
        return send(res, 400, { error: 'domain, entityId and ssoUrl (127.0.0.1), certificate' });
      }
      return send(res, 201, await makeSamlCampus(options.db, body));
    }
    if (req.url === '/dashboard-campus') {
      // Issue 39: a campus with a running term for the term dashboard (dashboard-fixture.ts).
      return send(res, 201, await makeDashboardCampus(options.db));
    }
    if (req.url === '/billing-term') {
      // Issue 39, bursar billing: a term to bill in the staff member's organisation.
      if (typeof body.email !== 'string') return send(res, 400, { error: 'email: a staff member' });
      return send(res, 201, await makeBillingTerm(options.db, body.email));
    }
    if (req.url === '/counted-copy') {
      // My Inventory: a print copy of the journey's own, its units counted, sold nowhere else.
      const { stock } = body;
      if (typeof stock !== 'number' || !Number.isInteger(stock) || stock < 0 || stock > 1000) {
        return send(res, 400, { error: 'stock: a whole number from 0 to 1000' });
      }
      return send(res, 201, await makeCountedCopy(options.db, stock));
    }
    if (req.url === '/organizations') {
      // Issue 20: an organisation of the journey's own, without campus sign-in yet.
      return send(res, 201, await makeOrganization(options.db));
    }
    return send(res, 404, { error: `no fixture at ${req.url}` });
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : {};
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
