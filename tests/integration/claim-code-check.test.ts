import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { claimCodeChecks, redeemCodes } from '#db/schema/access.ts';
import { users } from '#db/schema/accounts.ts';
import { products } from '#db/schema/catalog.ts';
import { ownerships } from '#db/schema/shelf.ts';
import {
  CLAIM_CHECK_LIMITS,
  checkClaimCode,
  maskedEmail,
} from '#domain/access/claim-code-check.ts';
import { canonicalCode } from '#domain/access/code-entry.ts';
import { redeemCode, redeemCodeDigest } from '#domain/access/redeem.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Invalid, TooManyRequests } from '#domain/shared/errors.ts';
import { insertProduct } from '#tests/builders.ts';
import {
  contextAt,
  openTestDatabase,
  TEST_ACCESS_CODE_KEY,
  testContext,
  unique,
} from '#tests/database.ts';

// The Claim Code Checker (spec 1 §2 user menu, "Claim Code Checker (users with access)"): what
// a code gives and where it stands, read as the redeem form reads it, without redeeming it;
// every check counted and slowed past a limit, as wrong codes are at the redeem form.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function person(label: string, ip = unique('ip')): Promise<RequestContext> {
  const [row] = await database.db
    .insert(users)
    .values({ email: `${unique(label)}@campus.example`, firstName: 'C' })
    .returning({ id: users.id });
  const user = (await loadSessionUser(database.db, { userId: row!.id, impersonatorId: null }))!;
  return testContext(database.db, { user, ipAddress: ip });
}

async function newCode({
  code = unique('CHECK').toUpperCase(),
  durationDays = 180 as number | null,
  expiresAt = null as Date | null,
} = {}): Promise<{ code: string; productId: number; title: string }> {
  const productId = await insertProduct(database.db, {}, { priceCents: 2000 });
  await database.db.insert(redeemCodes).values({
    productId,
    codeDigest: redeemCodeDigest(TEST_ACCESS_CODE_KEY, code),
    codeLast4: code.slice(-4),
    durationDays,
    expiresAt,
  });
  const [product] = await database.db
    .select({ title: products.title })
    .from(products)
    .where(eq(products.id, productId));
  return { code, productId, title: product!.title };
}

describe('checking a claim code (spec 1 §2 Claim Code Checker)', () => {
  it('an unused code: its product, access length and end date, and checking does not redeem it', async () => {
    const ends = new Date('2027-06-30T16:00:00Z');
    const { code, productId, title } = await newCode({ durationDays: 365, expiresAt: ends });
    const clerk = await person('clerk');
    const check = await checkClaimCode(clerk, `  ${code.toLowerCase()} `);
    expect(check).toMatchObject({
      found: true,
      code: canonicalCode(code),
      hint: null,
      product: { id: productId, title },
      standing: 'unused',
      durationDays: 365,
      expiresAt: ends,
      redeemedAt: null,
      redeemedBy: null,
    });
    const [row] = await database.db
      .select({ by: redeemCodes.redeemedByUserId })
      .from(redeemCodes)
      .where(eq(redeemCodes.codeDigest, redeemCodeDigest(TEST_ACCESS_CODE_KEY, code)));
    expect(row!.by).toBeNull();
    expect(
      await database.db.select().from(ownerships).where(eq(ownerships.userId, clerk.user!.id)),
    ).toEqual([]);
    // The student still redeems it afterwards.
    const student = await person('student');
    expect(await redeemCode(student, code)).toMatchObject({ productId });
  });

  it('a redeemed code says when, and whose account, masked', async () => {
    const { code } = await newCode();
    const student = await person('student');
    const redeemedAt = new Date('2026-12-01T15:30:00Z');
    await redeemCode(contextAt(student, redeemedAt), code);
    const check = await checkClaimCode(await person('clerk'), code);
    expect(check).toMatchObject({
      found: true,
      standing: 'redeemed',
      redeemedAt,
      redeemedBy: maskedEmail(student.user!.email),
    });
    expect(check.found && check.redeemedBy).toMatch(/^s•••\d@campus\.example$/);
  });

  it('a code past its end date is expired from that instant on; before it, unused', async () => {
    const ends = new Date('2026-12-10T12:00:00Z');
    const { code } = await newCode({ expiresAt: ends });
    const clerk = await person('clerk');
    expect(
      await checkClaimCode(contextAt(clerk, new Date(ends.getTime() - 1)), code),
    ).toMatchObject({ standing: 'unused' });
    expect(await checkClaimCode(contextAt(clerk, ends), code)).toMatchObject({
      standing: 'expired',
      expiresAt: ends,
    });
  });

  it('an O typed for a 0 finds the code, and says so; two codes that read alike find neither', async () => {
    const base = unique('LOOK')
      .toUpperCase()
      .replace(/[OI01]/g, 'X');
    await newCode({ code: `${base}-200` });
    const clerk = await person('clerk');
    expect(await checkClaimCode(clerk, `${base}-2OO`)).toMatchObject({
      found: true,
      code: canonicalCode(`${base}-200`),
      hint: 'digitZero',
      standing: 'unused',
    });
    const twin = unique('TWIN')
      .toUpperCase()
      .replace(/[OI01]/g, 'X');
    await newCode({ code: `${twin}-200` });
    await newCode({ code: `${twin}-2OO` });
    expect(await checkClaimCode(clerk, `${twin}-20O`)).toEqual({
      found: false,
      hint: 'digitZero',
      messageKey: 'redeem.error.unknown.digitZero',
    });
  });

  it('an unknown code is not found; empty is "This field may not be null."; each check is kept by its last four only', async () => {
    const clerk = await person('clerk');
    expect(await checkClaimCode(clerk, 'NO-SUCH-CODE-9876')).toEqual({
      found: false,
      hint: null,
      messageKey: 'redeem.error.unknown',
    });
    await expect(checkClaimCode(clerk, '  ')).rejects.toBeInstanceOf(Invalid);
    await expect(checkClaimCode(clerk, '  ')).rejects.toMatchObject({
      messageKey: 'redeem.error.empty',
    });
    const kept = await database.db
      .select({ last4: claimCodeChecks.codeLast4, found: claimCodeChecks.found })
      .from(claimCodeChecks)
      .where(eq(claimCodeChecks.checkerUserId, clerk.user!.id));
    expect(kept).toEqual([{ last4: '9876', found: false }]);
  });

  it(`past ${CLAIM_CHECK_LIMITS.maxPerAccount} checks in the window, even a good code waits; another clerk does not`, async () => {
    const clerk = await person('clerk');
    const now = new Date();
    await database.db.insert(claimCodeChecks).values(
      Array.from({ length: CLAIM_CHECK_LIMITS.maxPerAccount }, (_, i) => ({
        checkerUserId: clerk.user!.id,
        ipAddress: unique('ip'),
        codeLast4: 'XXXX',
        found: i % 2 === 0,
        checkedAt: new Date(now.getTime() - 60_000 - i * 1000),
      })),
    );
    const { code } = await newCode();
    const refused = checkClaimCode(clerk, code);
    await expect(refused).rejects.toBeInstanceOf(TooManyRequests);
    await expect(checkClaimCode(clerk, code)).rejects.toMatchObject({
      messageKey: 'claimCheck.error.throttled',
      params: { minutes: 14 },
    });
    // Once the oldest of them leaves the window, checks go on.
    const later = new Date(now.getTime() + CLAIM_CHECK_LIMITS.windowMs);
    expect(await checkClaimCode(contextAt(clerk, later), code)).toMatchObject({ found: true });
    expect(await checkClaimCode(await person('other-clerk'), code)).toMatchObject({
      found: true,
    });
  });

  it('checks sent at once each count: none slips past the limit', async () => {
    const clerk = await person('clerk');
    const now = new Date();
    await database.db.insert(claimCodeChecks).values(
      Array.from({ length: CLAIM_CHECK_LIMITS.maxPerAccount - 2 }, () => ({
        checkerUserId: clerk.user!.id,
        ipAddress: unique('ip'),
        codeLast4: 'XXXX',
        found: false,
        checkedAt: new Date(now.getTime() - 60_000),
      })),
    );
    const { code } = await newCode();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () => checkClaimCode(clerk, code)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    expect(
      outcomes.filter((o) => o.status === 'rejected' && o.reason instanceof TooManyRequests),
    ).toHaveLength(3);
  });

  it('while acting as someone, the check is the manager’s: counted and kept against them', async () => {
    const manager = await person('manager');
    const student = await person('student');
    const acting = {
      ...student,
      user: { ...student.user!, impersonatorId: manager.user!.id },
    };
    await checkClaimCode(acting, 'NO-SUCH-CODE-4321');
    const kept = await database.db
      .select({ checker: claimCodeChecks.checkerUserId })
      .from(claimCodeChecks)
      .where(eq(claimCodeChecks.codeLast4, '4321'));
    expect(kept.map((row) => row.checker)).toContain(manager.user!.id);
    expect(kept.map((row) => row.checker)).not.toContain(student.user!.id);
  });

  it('someone not logged in is refused', async () => {
    await expect(checkClaimCode(testContext(database.db), 'ANY-CODE')).rejects.toMatchObject({
      status: 403,
    });
  });
});

describe('maskedEmail', () => {
  it('keeps the first and last characters of a long local part and the whole domain', () => {
    expect(maskedEmail('student@demo.test')).toBe('s•••t@demo.test');
    expect(maskedEmail('jo@campus.example')).toBe('j•••@campus.example');
    expect(maskedEmail('élodie.b@u.ca')).toBe('é•••b@u.ca');
    expect(maskedEmail('not-an-address')).toBe('•••');
  });
});
