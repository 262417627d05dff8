import { createHmac } from 'node:crypto';
import { and, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import { redeemAttempts, redeemCodes } from '#db/schema/access.ts';
import { products } from '#db/schema/catalog.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { requireVerifiedEmail } from '#domain/accounts/email-verification.ts';
import { forgetAccounts } from '#domain/accounts/service.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, Invalid, TooManyRequests } from '#domain/shared/errors.ts';
import { throttle } from '#domain/shared/throttle.ts';
import { type CodeOnRecord, lookalikeCodes, redeemFailure } from './redeem-failure.ts';

// Redeeming a purchase code (spec 1 §4 Redeem dialog, Standalone redeem; issue 6 Codes).
// Codes are stored as a keyed digest, so the lookup never compares secrets byte by byte and no
// code sits whole in the database or the logs.

/** Codes are stored as HMAC-SHA256(key, code), hex; the key is ACCESS_CODE_KEY. */
export function redeemCodeDigest(key: string, code: string): string {
  return createHmac('sha256', key).update(code).digest('hex');
}

export const REDEEM_LIMITS = {
  windowMs: 15 * 60 * 1000,
  /** Ten wrong codes in a row from one account start the cool-down. */
  maxPerAccount: 10,
  maxPerAddress: 30,
};

const MAX_CODE_LENGTH = 64;
const DAY_MS = 86_400_000;

/** A code as typed, trimmed; empty is 'This field may not be null.' */
export function normalizeCode(raw: string | null | undefined): string {
  const code = (raw ?? '').trim();
  if (code === '') throw new Invalid('redeem.error.empty');
  // No code is longer: this one does not exist.
  if (code.length > MAX_CODE_LENGTH) throw new Invalid('redeem.error.unknown');
  return code;
}

async function recentFailures(ctx: RequestContext, userId: number) {
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
  return {
    forAccount: rows.filter((r) => r.userId === userId).map((r) => r.at),
    forAddress: rows.filter((r) => r.ipAddress === ctx.ipAddress).map((r) => r.at),
  };
}

export type Redeemed = { productId: number; title: string };

/**
 * Redeems a code for the logged-in user: the code's product goes on their shelf, once. Two
 * users racing for one code: the conditional update lets one win. Wrong codes are counted
 * per user and per address; past the limit every attempt waits out the cool-down.
 */
export async function redeemCode(ctx: RequestContext, raw: string | null): Promise<Redeemed> {
  const user = ctx.user;
  if (!user) throw new Forbidden('error.loginRequired');
  requireVerifiedEmail(user);
  const code = normalizeCode(raw);
  const decision = throttle(await recentFailures(ctx, user.id), ctx.now, REDEEM_LIMITS);
  if (!decision.allowed) {
    throw new TooManyRequests('redeem.error.throttled', { minutes: decision.retryAfterMinutes });
  }
  const last4 = code.slice(-4);
  const redeemed = await ctx.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(redeemCodes)
      .set({ redeemedByUserId: user.id, redeemedAt: ctx.now })
      .where(
        and(
          eq(redeemCodes.codeDigest, redeemCodeDigest(ctx.keys.accessCodes, code)),
          isNull(redeemCodes.redeemedByUserId),
          or(isNull(redeemCodes.expiresAt), gt(redeemCodes.expiresAt, ctx.now)),
        ),
      )
      .returning({ productId: redeemCodes.productId, durationDays: redeemCodes.durationDays });
    if (!claimed) return null;
    await tx
      .insert(ownerships)
      .values({
        userId: user.id,
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
  await ctx.db.insert(redeemAttempts).values({
    userId: user.id,
    ipAddress: ctx.ipAddress,
    succeeded: redeemed !== null,
    codeLast4: last4,
    attemptedAt: ctx.now,
  });
  if (!redeemed) throw new Invalid((await whyNotRedeemed(ctx, code)).messageKey);
  forgetAccounts([user.id]);
  return redeemed;
}

/**
 * Why the code did not redeem (issue 19): used, expired or unknown, by redeemFailure; for an
 * unknown code, whether a real code differs from it by an O, 0, I or 1 only. Nothing says
 * who used a code.
 */
async function whyNotRedeemed(ctx: RequestContext, code: string) {
  const digestOf = (value: string) => redeemCodeDigest(ctx.keys.accessCodes, value);
  const [found] = await ctx.db
    .select({ redeemedAt: redeemCodes.redeemedAt, expiresAt: redeemCodes.expiresAt })
    .from(redeemCodes)
    .where(eq(redeemCodes.codeDigest, digestOf(code)))
    .limit(1);
  if (found) return redeemFailure(found satisfies CodeOnRecord, ctx.now);
  const variants = new Map(lookalikeCodes(code).map((variant) => [digestOf(variant), variant]));
  if (variants.size === 0) return redeemFailure(null, ctx.now);
  const [match] = await ctx.db
    .select({ codeDigest: redeemCodes.codeDigest })
    .from(redeemCodes)
    .where(inArray(redeemCodes.codeDigest, [...variants.keys()]))
    .limit(1);
  const existing = match ? variants.get(match.codeDigest) : undefined;
  return redeemFailure(null, ctx.now, existing ? { typed: code, existing } : null);
}
