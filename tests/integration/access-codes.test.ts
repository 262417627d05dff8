import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '#db/client.ts';
import { accessCodes } from '#db/schema/access.ts';
import { assignAccessCode } from '#domain/access/codes.ts';
import { createUser } from '#domain/accounts/service.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, unique } from '#tests/database.ts';

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
    const given = codes.filter((code): code is string => code !== null);
    expect(given.sort()).toEqual(['A-1', 'A-2', 'A-3']);
    const holder = buyers[codes.findIndex((code) => code !== null)]!;
    const again = await assignAccessCode(database.db, {
      productId,
      userId: holder,
      orderId: null,
      now: new Date(),
    });
    expect(given).toContain(again);
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
    expect(new Set(codes).size).toBe(1);
    expect(codes[0]).not.toBeNull();
    const held = await database.db
      .select({ code: accessCodes.code })
      .from(accessCodes)
      .where(eq(accessCodes.assignedUserId, buyer));
    expect(held).toEqual([{ code: codes[0] }]);
  });
});
