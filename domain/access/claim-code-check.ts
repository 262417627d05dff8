import { and, eq, gt, or, sql } from 'drizzle-orm';
import { claimCodeChecks, redeemCodes } from '#db/schema/access.ts';
import { users } from '#db/schema/accounts.ts';
import { products } from '#db/schema/catalog.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, TooManyRequests } from '#domain/shared/errors.ts';
import { recentFailures, throttle } from '#domain/shared/throttle.ts';
import { type MeantCode, meantCode, typedCode } from './code-entry.ts';
import { codesReadLike, type HeldCode } from './redeem.ts';
import {
  type CodeStanding,
  codeStanding,
  type LookalikeHint,
  lookalikeHint,
  type RedeemFailure,
  redeemFailure,
} from './redeem-failure.ts';

// The Claim Code Checker (spec 1 §2, user menu: "Claim Code Checker (users with access)"): a
// bookstore clerk or a help-desk agent types the code a student brings and learns what the
// store knows of it — which product it gives, whether it is still unused, expired or redeemed,
// and when — without redeeming it. The code is read exactly as the redeem form reads it
// (typedCode, meantCode), so the checker never says "unused" of a code the form would refuse.

/**
 * Checks per staff member in the window: a clerk at a busy counter checks a few a minute; more
 * is someone trying codes. Every check counts, found or not: a checker that only slowed down
 * misses would still let an agent sweep for live codes.
 */
export const CLAIM_CHECK_LIMITS = {
  windowMs: 15 * 60 * 1000,
  maxPerAccount: 60,
  maxPerAddress: 120,
};

export type ClaimCodeCheck =
  | {
      found: false;
      hint: LookalikeHint | null;
      /** What the redeem form would say of it (redeemFailure): the checker says the same. */
      messageKey: RedeemFailure['messageKey'];
    }
  | {
      found: true;
      /** The code the store holds, in canonical form: differs from the typed one by O/0, I/1. */
      code: string;
      /** The typed code was read with an O for a 0 (or I for 1): say which. */
      hint: LookalikeHint | null;
      product: { id: number; title: string; productType: string; slug: string };
      standing: CodeStanding;
      durationDays: number | null;
      expiresAt: Date | null;
      redeemedAt: Date | null;
      /** Who redeemed it, masked: enough to tell "your own account" from "someone else's". */
      redeemedBy: string | null;
    };

/**
 * An e-mail address with most of its local part hidden: `student@demo.test` → `s•••t@demo.test`
 * (short local parts keep their first character only). The domain stays: it tells a campus
 * address from a personal one, which is what the person at the counter needs to know.
 */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '•••';
  const local = [...email.slice(0, at)];
  const kept = local.length > 4 ? `${local[0]}•••${local[local.length - 1]}` : `${local[0]}•••`;
  return `${kept}${email.slice(at)}`;
}

async function recentChecks(ctx: RequestContext, userId: number) {
  const since = new Date(ctx.now.getTime() - CLAIM_CHECK_LIMITS.windowMs);
  const rows = await ctx.db
    .select({
      userId: claimCodeChecks.checkerUserId,
      ipAddress: claimCodeChecks.ipAddress,
      at: claimCodeChecks.checkedAt,
    })
    .from(claimCodeChecks)
    .where(
      and(
        gt(claimCodeChecks.checkedAt, since),
        or(eq(claimCodeChecks.checkerUserId, userId), eq(claimCodeChecks.ipAddress, ctx.ipAddress)),
      ),
    );
  return recentFailures(rows, userId, ctx.ipAddress);
}

/**
 * What the store holds for a typed code, for a staff member whose menu shows the checker (the
 * page checks that; this checks there is someone to count). Empty is 'This field may not be
 * null.' as on the redeem form; past the limit, every check waits out the cool-down. Each check
 * is recorded with the code's last four characters only, against the person at the keyboard
 * (the manager, when acting as someone through Switch Account). One check at a time per person:
 * checks sent at once each see the ones before them, so none slips past the limit.
 */
export async function checkClaimCode(
  ctx: RequestContext,
  raw: string | null,
): Promise<ClaimCodeCheck> {
  const user = ctx.user;
  if (!user) throw new Forbidden('error.loginRequired');
  const code = typedCode(raw);
  const checkerId = user.impersonatorId ?? user.id;
  return ctx.db.transaction(async (tx) => {
    const inTx = { ...ctx, db: tx };
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext('claim_code_check'), ${checkerId}::int)`,
    );
    const decision = throttle(await recentChecks(inTx, checkerId), ctx.now, CLAIM_CHECK_LIMITS);
    if (!decision.allowed) {
      throw new TooManyRequests('claimCheck.error.throttled', {
        minutes: decision.retryAfterMinutes,
      });
    }
    const meant = meantCode(code, await codesReadLike(inTx, code, raw ?? ''));
    const result = await describe(inTx, code, meant);
    await tx.insert(claimCodeChecks).values({
      checkerUserId: checkerId,
      ipAddress: ctx.ipAddress,
      codeLast4: code.slice(-4),
      found: result.found,
      checkedAt: ctx.now,
    });
    return result;
  });
}

/** A code the store does not hold, or cannot tell apart from another: the redeem form's words. */
function notFound(typed: string, existing: string | null, now: Date): ClaimCodeCheck {
  return {
    found: false,
    hint: existing ? lookalikeHint(typed, existing) : null,
    messageKey: redeemFailure(null, now, existing ? { typed, existing } : null).messageKey,
  };
}

async function describe(
  ctx: RequestContext,
  typed: string,
  meant: MeantCode<HeldCode>,
): Promise<ClaimCodeCheck> {
  if (meant.kind === 'none' || meant.kind === 'ambiguous') {
    const existing = meant.kind === 'ambiguous' ? meant.codes[0]! : null;
    return notFound(typed, existing, ctx.now);
  }
  const [row] = await ctx.db
    .select({
      productId: products.id,
      title: products.title,
      productType: products.productType,
      slug: products.slug,
      durationDays: redeemCodes.durationDays,
      expiresAt: redeemCodes.expiresAt,
      redeemedAt: redeemCodes.redeemedAt,
      redeemerEmail: users.email,
    })
    .from(redeemCodes)
    .innerJoin(products, eq(products.id, redeemCodes.productId))
    .leftJoin(users, eq(users.id, redeemCodes.redeemedByUserId))
    .where(eq(redeemCodes.id, meant.record.id));
  if (!row) return notFound(typed, null, ctx.now);
  return {
    found: true,
    code: meant.code,
    hint: meant.kind === 'lookalike' ? lookalikeHint(typed, meant.code) : null,
    product: {
      id: row.productId,
      title: row.title,
      productType: row.productType,
      slug: row.slug,
    },
    standing: codeStanding(row, ctx.now),
    durationDays: row.durationDays,
    expiresAt: row.expiresAt,
    redeemedAt: row.redeemedAt,
    redeemedBy: row.redeemedAt && row.redeemerEmail ? maskedEmail(row.redeemerEmail) : null,
  };
}
