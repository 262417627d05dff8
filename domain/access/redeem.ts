import { createHmac } from 'node:crypto';
import { and, asc, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import { redeemAttempts, redeemCodes } from '#db/schema/access.ts';
import { products } from '#db/schema/catalog.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { requireVerifiedEmail } from '#domain/accounts/email-verification.ts';
import { forgetAccounts } from '#domain/accounts/service.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, Invalid, TooManyRequests } from '#domain/shared/errors.ts';
import { recentFailures, throttle } from '#domain/shared/throttle.ts';
import {
  type CodeFound,
  canonicalCode,
  codeReadings,
  type MeantCode,
  meantCode,
  typedCode,
} from './code-entry.ts';
import { type CodeOnRecord, redeemFailure } from './redeem-failure.ts';

// Redeeming a purchase code (spec 1 §4 Redeem dialog, Standalone redeem; issue 6 Codes).
// Codes are stored as a keyed digest, so the lookup never compares secrets byte by byte and no
// code sits whole in the database or the logs.

/**
 * Codes are stored as HMAC-SHA256(key, code), hex, of the code's canonical form (issue 38:
 * case, spaces and hyphens are no part of it); the key is ACCESS_CODE_KEY.
 */
export function redeemCodeDigest(key: string, code: string): string {
  return keyedDigest(key, canonicalCode(code));
}

function keyedDigest(key: string, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex');
}

export const REDEEM_LIMITS = {
  windowMs: 15 * 60 * 1000,
  /** Ten wrong codes in a row from one account start the cool-down. */
  maxPerAccount: 10,
  maxPerAddress: 30,
};

const DAY_MS = 86_400_000;

async function recentWrongCodes(ctx: RequestContext, userId: number) {
  const since = new Date(ctx.now.getTime() - REDEEM_LIMITS.windowMs);
  const rows = await ctx.db
    .select({
      userId: redeemAttempts.userId,
      ipAddress: redeemAttempts.ipAddress,
      at: redeemAttempts.attemptedAt,
    })
    .from(redeemAttempts)
    .where(
      and(
        eq(redeemAttempts.succeeded, false),
        gt(redeemAttempts.attemptedAt, since),
        or(eq(redeemAttempts.userId, userId), eq(redeemAttempts.ipAddress, ctx.ipAddress)),
      ),
    );
  return recentFailures(rows, userId, ctx.ipAddress);
}

export type Redeemed = { productId: number; title: string };

export type HeldCode = {
  id: number;
  productId: number;
  durationDays: number | null;
  redeemedAt: Date | null;
  expiresAt: Date | null;
};

/**
 * The codes held that the typed one may mean, in canonical form: the code as typed, its O/0
 * and I/1 readings, and the code exactly as typed (trimmed), which is how codes were digested
 * before issue 38.
 */
export async function codesReadLike(
  ctx: RequestContext,
  code: string,
  raw: string,
): Promise<CodeFound<HeldCode>[]> {
  const readings = new Map(
    codeReadings(code).map((reading) => [keyedDigest(ctx.keys.accessCodes, reading), reading]),
  );
  readings.set(keyedDigest(ctx.keys.accessCodes, raw.trim()), code);
  const rows = await ctx.db
    .select({
      id: redeemCodes.id,
      codeDigest: redeemCodes.codeDigest,
      productId: redeemCodes.productId,
      durationDays: redeemCodes.durationDays,
      redeemedAt: redeemCodes.redeemedAt,
      expiresAt: redeemCodes.expiresAt,
    })
    .from(redeemCodes)
    .where(inArray(redeemCodes.codeDigest, [...readings.keys()]))
    .orderBy(asc(redeemCodes.id));
  return rows.map(({ codeDigest, ...record }) => ({ code: readings.get(codeDigest)!, record }));
}

/**
 * Redeems a code for the logged-in user: the code's product goes on their shelf, once. The
 * code is read as people type it (typedCode), and an O typed for a 0 (or I for 1) is taken
 * when exactly one held code reads that way (meantCode). Two users racing for one code: the
 * conditional update lets one win. Wrong codes are counted per user and per address; past the
 * limit every attempt waits out the cool-down.
 */
export async function redeemCode(ctx: RequestContext, raw: string | null): Promise<Redeemed> {
  const user = ctx.user;
  if (!user) throw new Forbidden('error.loginRequired');
  requireVerifiedEmail(user);
  const code = typedCode(raw);
  const decision = throttle(await recentWrongCodes(ctx, user.id), ctx.now, REDEEM_LIMITS);
  if (!decision.allowed) {
    throw new TooManyRequests('redeem.error.throttled', { minutes: decision.retryAfterMinutes });
  }
  const meant = meantCode(code, await codesReadLike(ctx, code, raw ?? ''));
  const held = meant.kind === 'exact' || meant.kind === 'lookalike' ? meant.record : null;
  const redeemed = held ? await claim(ctx, user.id, held) : null;
  await ctx.db.insert(redeemAttempts).values({
    userId: user.id,
    ipAddress: ctx.ipAddress,
    succeeded: redeemed !== null,
    codeLast4: code.slice(-4),
    attemptedAt: ctx.now,
  });
  if (!redeemed) throw new Invalid((await whyNotRedeemed(ctx, code, meant)).messageKey);
  forgetAccounts([user.id]);
  return redeemed;
}

/** Takes the code for the user if nobody has and it has not expired, and shelves its product. */
async function claim(
  ctx: RequestContext,
  userId: number,
  held: HeldCode,
): Promise<Redeemed | null> {
  return ctx.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(redeemCodes)
      .set({ redeemedByUserId: userId, redeemedAt: ctx.now })
      .where(
        and(
          eq(redeemCodes.id, held.id),
          isNull(redeemCodes.redeemedByUserId),
          or(isNull(redeemCodes.expiresAt), gt(redeemCodes.expiresAt, ctx.now)),
        ),
      )
      .returning({ productId: redeemCodes.productId, durationDays: redeemCodes.durationDays });
    if (!claimed) return null;
    await tx
      .insert(ownerships)
      .values({
        userId,
        productId: claimed.productId,
        source: 'code',
        startsAt: ctx.now,
        expiresAt: claimed.durationDays
          ? new Date(ctx.now.getTime() + claimed.durationDays * DAY_MS)
          : null,
      })
      .onConflictDoNothing();
    const [product] = await tx
      .select({ title: products.title })
      .from(products)
      .where(eq(products.id, claimed.productId));
    return { productId: claimed.productId, title: product?.title ?? '' };
  });
}

/**
 * Why the code did not redeem (issue 19): the code meant is used or expired (read again: a
 * racer may just have taken it), or no code is meant — with a hint at the O, 0, I or 1 to
 * check when more than one code reads like it. Nothing says who used a code.
 */
async function whyNotRedeemed(ctx: RequestContext, code: string, meant: MeantCode<HeldCode>) {
  if (meant.kind === 'exact' || meant.kind === 'lookalike') {
    const [found] = await ctx.db
      .select({ redeemedAt: redeemCodes.redeemedAt, expiresAt: redeemCodes.expiresAt })
      .from(redeemCodes)
      .where(eq(redeemCodes.id, meant.record.id));
    return redeemFailure((found ?? null) satisfies CodeOnRecord | null, ctx.now);
  }
  const existing = meant.kind === 'ambiguous' ? meant.codes[0]! : null;
  return redeemFailure(null, ctx.now, existing ? { typed: code, existing } : null);
}
