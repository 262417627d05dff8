import { createHmac, randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleApiRequest } from '#api/router.ts';
import type { DatabaseHandle } from '#db/client.ts';
import { redeemAttempts, redeemCodes } from '#db/schema/access.ts';
import { users } from '#db/schema/accounts.ts';
import { products } from '#db/schema/catalog.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { REDEEM_LIMITS, redeemCode, redeemCodeDigest } from '#domain/access/redeem.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Invalid, TooManyRequests } from '#domain/shared/errors.ts';
import { insertProduct } from '#tests/builders.ts';
import {
  openTestDatabase,
  TEST_ACCESS_CODE_KEY,
  testContext,
  testWebContext,
  unique,
} from '#tests/database.ts';

// Issue 6, Codes: a code grants its product once, whoever races for it; wrong codes are
// throttled per user and per address; codes are never stored or logged whole.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function person(ip = unique('ip')): Promise<RequestContext> {
  const [row] = await database.db
    .insert(users)
    .values({ email: `${unique('redeem')}@example.test`, firstName: 'R' })
    .returning({ id: users.id });
  const user = (await loadSessionUser(database.db, { userId: row!.id, impersonatorId: null }))!;
  return testContext(database.db, { user, ipAddress: ip });
}

async function newCode(
  durationDays: number | null = null,
  { code = unique('CODE').toUpperCase(), expiresAt = null as Date | null } = {},
): Promise<{ code: string; productId: number }> {
  const productId = await insertProduct(database.db, {}, { priceCents: 2000 });
  await database.db.insert(redeemCodes).values({
    productId,
    codeDigest: redeemCodeDigest(TEST_ACCESS_CODE_KEY, code),
    codeLast4: code.slice(-4),
    durationDays,
    expiresAt,
  });
  return { code, productId };
}

describe('redeeming a code (spec 1 §4 Redeem dialog; issue 6)', () => {
  it('trims the code, grants the product for its duration, and only once', async () => {
    const { code, productId } = await newCode(180);
    const ctx = await person();
    expect(await redeemCode(ctx, `  ${code}\n`)).toMatchObject({ productId });
    const [owned] = await database.db
      .select()
      .from(ownerships)
      .where(eq(ownerships.userId, ctx.user!.id));
    expect(owned).toMatchObject({ productId, source: 'code' });
    expect(owned!.expiresAt!.getTime() - owned!.startsAt.getTime()).toBe(180 * 86_400_000);
    await expect(redeemCode(ctx, code)).rejects.toMatchObject({
      messageKey: 'redeem.error.used',
    });
  });

  it('empty is "This field may not be null."', async () => {
    const ctx = await person();
    await expect(redeemCode(ctx, '   ')).rejects.toMatchObject({
      messageKey: 'redeem.error.empty',
    });
    const web = testWebContext(database, { user: ctx.user });
    const response = await handleApiRequest(
      new Request('http://127.0.0.1/api/redeem', {
        method: 'POST',
        headers: { 'Content-Type': 'application/vnd.api+json' },
        body: JSON.stringify({ data: { type: 'redeem', attributes: { code: null } } }),
      }),
      web,
    );
    expect(response.status).toBe(400);
    expect((await response.json()).errors[0].detail).toBe('This field may not be null.');
  });

  it('two users racing for one code: one wins', async () => {
    const { code } = await newCode();
    const racers = await Promise.all(Array.from({ length: 8 }, () => person()));
    const results = await Promise.allSettled(racers.map((ctx) => redeemCode(ctx, code)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected')) {
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(Invalid);
    }
  });

  it('ten wrong codes in a row start the cool-down, even for the right code; only last 4 kept', async () => {
    const ctx = await person();
    const { code } = await newCode();
    for (let i = 0; i < REDEEM_LIMITS.maxPerAccount; i += 1) {
      await expect(redeemCode(ctx, `WRONG-${i}-XYZW`)).rejects.toBeInstanceOf(Invalid);
    }
    await expect(redeemCode(ctx, code)).rejects.toBeInstanceOf(TooManyRequests);
    const rows = await database.db
      .select({ last4: redeemAttempts.codeLast4 })
      .from(redeemAttempts)
      .where(eq(redeemAttempts.userId, ctx.user!.id));
    expect(rows).toHaveLength(REDEEM_LIMITS.maxPerAccount);
    expect(new Set(rows.map((r) => r.last4))).toEqual(new Set(['XYZW']));
    // After the window the right code works.
    const later = { ...ctx, now: new Date(ctx.now.getTime() + REDEEM_LIMITS.windowMs + 1000) };
    expect((await redeemCode(later, code)).productId).toBeGreaterThan(0);
    // Through the API the cool-down is a 429 in words.
    const other = await person();
    for (let i = 0; i < REDEEM_LIMITS.maxPerAccount; i += 1) {
      await redeemCode(other, `NOPE-${i}`).catch(() => undefined);
    }
    const response = await handleApiRequest(
      new Request('http://127.0.0.1/api/redeem', {
        method: 'POST',
        headers: { 'Content-Type': 'application/vnd.api+json' },
        body: JSON.stringify({ data: { type: 'redeem', attributes: { code } } }),
      }),
      testWebContext(database, { user: other.user, ipAddress: other.ipAddress }),
    );
    expect(response.status).toBe(429);
    expect((await response.json()).errors[0].detail).toMatch(
      /^Too many wrong codes\. Please wait \d+ minutes? before trying again\.$/,
    );
  });

  it('one address spraying many accounts is stopped too', async () => {
    const ip = unique('shared-ip');
    for (let i = 0; i < REDEEM_LIMITS.maxPerAddress; i += 1) {
      await redeemCode(await person(ip), `SPRAY-${i}`).catch(() => undefined);
    }
    await expect(redeemCode(await person(ip), 'ANY-CODE')).rejects.toBeInstanceOf(TooManyRequests);
  });

  it('issue 19: unknown, used and expired codes are told apart, in English and French', async () => {
    const ctx = await person();
    await expect(redeemCode(ctx, 'NO-SUCH-CODE-XYZ')).rejects.toMatchObject({
      messageKey: 'redeem.error.unknown',
    });
    const expired = await newCode(null, {
      expiresAt: new Date(ctx.now.getTime() - 86_400_000),
    });
    await expect(redeemCode(ctx, expired.code)).rejects.toMatchObject({
      messageKey: 'redeem.error.expired',
    });
    // Used by someone else: said to be redeemed, never by whom.
    const used = await newCode();
    await redeemCode(await person(), used.code);
    const api = async (code: string, locale: 'en' | 'fr-CA') => {
      const response = await handleApiRequest(
        new Request('http://127.0.0.1/api/redeem', {
          method: 'POST',
          headers: { 'Content-Type': 'application/vnd.api+json' },
          body: JSON.stringify({ data: { type: 'redeem', attributes: { code } } }),
        }),
        testWebContext(database, { user: ctx.user, ipAddress: ctx.ipAddress, locale }),
      );
      expect(response.status).toBe(400);
      return (await response.json()).errors[0].detail as string;
    };
    expect(await api(used.code, 'en')).toBe('This code has already been redeemed.');
    expect(await api(used.code, 'fr-CA')).toBe('Ce code a déjà été utilisé.');
    expect(await api(expired.code, 'en')).toBe(
      'This code has expired. Ask whoever gave it to you for a new one.',
    );
    expect(await api('NO-SUCH-CODE-XYZ', 'en')).toBe(
      'This code does not exist. Check what you typed and try again.',
    );
  });

  it('issue 38: a code typed with the letter O for the digit 0 (or I for 1) redeems the one code it reads as', async () => {
    const ctx = await person();
    const { code, productId } = await newCode(null, { code: `O-${lookalikeFree()}-2026-10` });
    const withO = code.replace('2026-10', '2O26-1O');
    expect(await redeemCode(ctx, withO)).toMatchObject({ productId });
    // Which I for 1: the API answers with the title it unlocked.
    const other = await newCode(null, { code: `I-${lookalikeFree()}-2026-10` });
    const response = await api(other.code.replace('2026-10', '2026-I0'), await person());
    expect(response.status).toBe(200);
    const [product] = await database.db
      .select({ title: products.title })
      .from(products)
      .where(eq(products.id, other.productId));
    expect((await response.json()).data.attributes).toEqual({
      productId: other.productId,
      title: product!.title,
    });
    // Read as typed again, the code is used: said so, not "does not exist".
    await expect(redeemCode(await person(), withO)).rejects.toMatchObject({
      messageKey: 'redeem.error.used',
    });
  });

  it('issue 19 and 38: when two codes read like the typed one, neither is taken and the hint says which character to check', async () => {
    const ctx = await person();
    const tag = lookalikeFree();
    const zero = await newCode(null, { code: `TWIN-${tag}-200` });
    await newCode(null, { code: `TWIN-${tag}-2OO` });
    await expect(redeemCode(ctx, `TWIN-${tag}-20O`)).rejects.toMatchObject({
      messageKey: 'redeem.error.unknown.digitZero',
    });
    const response = await api(`twin ${tag} 2O0`, ctx, 'fr-CA');
    expect(response.status).toBe(400);
    expect((await response.json()).errors[0].detail).toBe(
      'Ce code n’existe pas. Les codes utilisent le chiffre 0, et non la lettre O.',
    );
    // Typed as it is, each code still redeems, once.
    expect(await redeemCode(ctx, zero.code)).toMatchObject({ productId: zero.productId });
  });

  it('issue 38: spaces, lower case and missing or extra hyphens are read as the code', async () => {
    const typings = [
      (code: string) => code.toLowerCase(),
      (code: string) => code.replaceAll('-', ' '),
      (code: string) => code.replaceAll('-', ''),
      (code: string) => ` ${code.replaceAll('-', '--')}- `,
    ];
    for (const typing of typings) {
      const { code, productId } = await newCode(null, { code: `AS-${lookalikeFree()}-TYPED` });
      expect(await redeemCode(await person(), typing(code))).toMatchObject({ productId });
    }
    // A code stored before issue 38 (digested as it was written) still redeems, typed as written.
    const legacy = `OLD-${lookalikeFree()}-Code`;
    const productId = await insertProduct(database.db, {}, { priceCents: 2000 });
    await database.db.insert(redeemCodes).values({
      productId,
      codeDigest: createHmac('sha256', TEST_ACCESS_CODE_KEY).update(legacy).digest('hex'),
      codeLast4: legacy.slice(-4),
    });
    expect(await redeemCode(await person(), ` ${legacy} `)).toMatchObject({ productId });
  });
});

/** Letters with no O or I, so that a test's code has only the look-alikes it puts there. */
function lookalikeFree(length = 10): string {
  return Array.from({ length }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZ'[randomInt(24)]).join('');
}

function api(code: string, who: RequestContext, locale: 'en' | 'fr-CA' = 'en') {
  return handleApiRequest(
    new Request('http://127.0.0.1/api/redeem', {
      method: 'POST',
      headers: { 'Content-Type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'redeem', attributes: { code } } }),
    }),
    testWebContext(database, { user: who.user, ipAddress: who.ipAddress, locale }),
  );
}
