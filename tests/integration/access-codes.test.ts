import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '#db/client.ts';
import { accessCodes } from '#db/schema/access.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { acquireAccessCode, assignAccessCode, heldAccessCode } from '#domain/access/codes.ts';
import { createUser, loadSessionUser } from '#domain/accounts/service.ts';
import { Conflict, Forbidden, NotFound } from '#domain/shared/errors.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, unique } from '#tests/database.ts';

// Issue 4, Fulfilment: courseware gets an access code from the code pool.
let database: DatabaseHandle;
beforeAll(async () => {
  database = process.env.DATABASE_URL
    ? await openDatabase({ url: process.env.DATABASE_URL, poolSize: 10 })
    : await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const user = () =>
  createUser(database.db, {
    email: `${unique('code')}@example.test`,
    password: 'pw-123456',
    firstName: 'K',
    lastName: 'K',
  });

describe('access code pool', () => {
  it('ten buyers at once for three codes: three distinct codes, seven wait; a holder keeps theirs', async () => {
    const productId = await insertProduct(database.db, { productType: 'courseware' });
    await database.db
      .insert(accessCodes)
      .values(['A-1', 'A-2', 'A-3'].map((code) => ({ productId, code })));
    const buyers = await Promise.all(Array.from({ length: 10 }, user));
    const codes = await Promise.all(
      buyers.map((userId) =>
        database.db.transaction((tx) =>
          assignAccessCode(tx, { productId, userId, orderId: null, now: new Date() }),
        ),
      ),
    );
    const given = codes.flatMap((held) => (held ? [held.code] : []));
    expect(given.sort()).toEqual(['A-1', 'A-2', 'A-3']);
    const holder = buyers[codes.findIndex((code) => code !== null)]!;
    const again = await assignAccessCode(database.db, {
      productId,
      userId: holder,
      orderId: null,
      now: new Date(),
    });
    expect(given).toContain(again?.code);
    const rows = await database.db
      .select()
      .from(accessCodes)
      .where(eq(accessCodes.productId, productId));
    expect(rows.filter((row) => row.assignedUserId === holder)).toHaveLength(1);
  });

  // Issue 37 (a mutant that survived on PGlite, which runs one transaction at a time): two
  // presses of one buyer at once must not take two codes. On PostgreSQL, in CI, they race.
  it('one buyer pressing five times at once holds one code, the same in every answer', async () => {
    const productId = await insertProduct(database.db, { productType: 'courseware' });
    await database.db
      .insert(accessCodes)
      .values(['B-1', 'B-2', 'B-3', 'B-4', 'B-5', 'B-6'].map((code) => ({ productId, code })));
    const buyer = await user();
    const codes = await Promise.all(
      Array.from({ length: 5 }, () =>
        database.db.transaction((tx) =>
          assignAccessCode(tx, { productId, userId: buyer, orderId: null, now: new Date() }),
        ),
      ),
    );
    expect(new Set(codes.map((held) => held?.code)).size).toBe(1);
    expect(codes[0]).not.toBeNull();
    const held = await database.db
      .select({ code: accessCodes.code })
      .from(accessCodes)
      .where(eq(accessCodes.assignedUserId, buyer));
    expect(held).toEqual([{ code: codes[0]!.code }]);
  });

  // Rush week: a buyer never waits for another buyer's checkout (still open, holding the code it
  // is taking) to get a code; they take the next one. PGlite runs one transaction at a time.
  it.skipIf(!process.env.DATABASE_URL)(
    'a buyer takes the next code while another checkout still holds the first',
    async () => {
      const productId = await insertProduct(database.db, { productType: 'courseware' });
      await database.db
        .insert(accessCodes)
        .values(['C-1', 'C-2'].map((code) => ({ productId, code })));
      const [slow, quick] = [await user(), await user()];
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let slowTook!: (code: string | undefined) => void;
      const slowHolds = new Promise<string | undefined>((resolve) => {
        slowTook = resolve;
      });
      const slowCheckout = database.db.transaction(async (tx) => {
        const held = await assignAccessCode(tx, {
          productId,
          userId: slow,
          orderId: null,
          now: new Date(),
        });
        slowTook(held?.code);
        await released;
        return held;
      });
      expect(await slowHolds).toBe('C-1');
      try {
        const quickHeld = await database.db.transaction(async (tx) => {
          // Waiting on the slow checkout's row would end here with an error, not a code.
          await tx.execute(sql`set local lock_timeout = '2s'`);
          return assignAccessCode(tx, { productId, userId: quick, orderId: null, now: new Date() });
        });
        expect(quickHeld).toEqual({ code: 'C-2', url: null });
      } finally {
        release();
      }
      expect(await slowCheckout).toEqual({ code: 'C-1', url: null });
    },
  );
});

describe('Acquire Access Code (spec 1 §4 Access code panel)', () => {
  const owner = async (productId: number) => {
    const userId = await user();
    await database.db.insert(ownerships).values({ userId, productId, source: 'purchase' });
    const session = await loadSessionUser(database.db, { userId, impersonatorId: null });
    return testContext(database.db, { user: session });
  };

  it('gives the owner a code of the pool, with its link, and the same code again after', async () => {
    const productId = await insertProduct(database.db, { productType: 'courseware' });
    await database.db.insert(accessCodes).values([
      { productId, code: 'D-1', accessCodeUrl: 'https://courseware.test/redeem/D-1' },
      { productId, code: 'D-2' },
    ]);
    const ctx = await owner(productId);
    expect(await heldAccessCode(ctx, productId)).toBeNull();
    const acquired = await acquireAccessCode(ctx, productId);
    expect(acquired).toEqual({ code: 'D-1', url: 'https://courseware.test/redeem/D-1' });
    expect(await heldAccessCode(ctx, productId)).toEqual(acquired);
    expect(await acquireAccessCode(ctx, productId)).toEqual(acquired);
  });

  it('says the pool is empty with the spec’s failure text, and nothing is held', async () => {
    const productId = await insertProduct(database.db, { productType: 'courseware' });
    const ctx = await owner(productId);
    const refused = await acquireAccessCode(ctx, productId).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Conflict);
    expect((refused as Conflict).messageKey).toBe('access.error.retrieve');
    expect(await heldAccessCode(ctx, productId)).toBeNull();
  });

  it('gives nothing to someone who does not own the courseware, nor to a visitor', async () => {
    const productId = await insertProduct(database.db, { productType: 'courseware' });
    await database.db.insert(accessCodes).values({ productId, code: 'E-1' });
    const stranger = await owner(await insertProduct(database.db, { productType: 'courseware' }));
    for (const ask of [acquireAccessCode, heldAccessCode]) {
      const refused = await ask(stranger, productId).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(NotFound);
      expect((refused as NotFound).messageKey).toBe('access.error.subscription');
      const visitor = await ask(testContext(database.db), productId).catch(
        (error: unknown) => error,
      );
      expect(visitor).toBeInstanceOf(Forbidden);
    }
    const [code] = await database.db
      .select({ assignedUserId: accessCodes.assignedUserId })
      .from(accessCodes)
      .where(eq(accessCodes.productId, productId));
    expect(code).toEqual({ assignedUserId: null });
  });
});
