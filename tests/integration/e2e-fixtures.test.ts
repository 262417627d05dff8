import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { accessCodes } from '#db/schema/access.ts';
import { users } from '#db/schema/accounts.ts';
import { orders } from '#db/schema/commerce.ts';
import { sectionMembers } from '#db/schema/courses.ts';
import { DEMO_PASSWORD, MIN_PRODUCTS, seedDemo } from '#db/seed/demo.ts';
import { redeemCode } from '#domain/access/redeem.ts';
import { verifyPassword } from '#domain/accounts/password.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import { ownedProducts } from '#domain/shelf/service.ts';
import { TEST_ACCESS_CODE_KEY, testContext, unique } from '#tests/database.ts';
import { makeRedeemCode, makeUser } from '#tests/e2e/fixture-server.ts';

// The browser journeys' own users (decision 015): a user made like a demo account stands
// where it stands as seeded, and changes nothing of the demo account's.
let database: DatabaseHandle;
let dataDir: string;
beforeAll(async () => {
  // A demo of its own: the seed owns the demo e-mails, which a shared database may hold.
  database = await openDatabase({});
  await migrateDatabase(database);
  dataDir = mkdtempSync(path.join(tmpdir(), 'shelfmark-fixtures-'));
  await seedDemo(database, {
    products: MIN_PRODUCTS,
    dataDir,
    accessCodeKey: TEST_ACCESS_CODE_KEY,
  });
});
afterAll(async () => {
  await database?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function contextOf(userId: number) {
  const user = await loadSessionUser(database.db, { userId, impersonatorId: null });
  return testContext(database.db, { user });
}

async function sectionsOf(userId: number) {
  return database.db
    .select({
      sectionId: sectionMembers.sectionId,
      role: sectionMembers.role,
      optStatus: sectionMembers.optStatus,
      isCourseFee: sectionMembers.isCourseFee,
      isClassroomInstructor: sectionMembers.isClassroomInstructor,
    })
    .from(sectionMembers)
    .where(eq(sectionMembers.userId, userId))
    .orderBy(asc(sectionMembers.sectionId));
}

async function userIdOf(email: string): Promise<number> {
  const [row] = await database.db.select().from(users).where(eq(users.email, email));
  return row!.id;
}

describe('makeUser', () => {
  it('like the demo student: its sections, orders and shelf, an access code of its own, the demo password', async () => {
    const demo = await userIdOf('student@demo.test');
    const made = await makeUser(database.db, { like: 'student', label: 'Opting journey' });
    expect(made.email).toMatch(/^opting-journey-\d+@e2e\.test$/);
    expect(made).toMatchObject({ firstName: 'Maya', password: DEMO_PASSWORD });
    const [row] = await database.db.select().from(users).where(eq(users.id, made.id));
    expect(await verifyPassword(row!.passwordHash, made.password)).toBe(true);

    expect(await sectionsOf(made.id)).toEqual(await sectionsOf(demo));
    expect((await sectionsOf(made.id)).length).toBeGreaterThan(0);
    const shelf = async (id: number) =>
      (await ownedProducts(await contextOf(id))).map((item) => item.productId);
    expect(await shelf(made.id)).toEqual(await shelf(demo));
    const orderIds = async (userId: number) =>
      (await database.db.select().from(orders).where(eq(orders.userId, userId))).map((o) => o.id);
    expect((await orderIds(made.id)).length).toBe((await orderIds(demo)).length);
    expect(await orderIds(made.id)).not.toEqual(await orderIds(demo));
    const codes = async (userId: number) =>
      (
        await database.db.select().from(accessCodes).where(eq(accessCodes.assignedUserId, userId))
      ).map((c) => c.code);
    expect((await codes(made.id)).length).toBe(1);
    expect(await codes(demo)).not.toContain((await codes(made.id))[0]);

    // Opting out is the made user's alone.
    await database.db
      .update(sectionMembers)
      .set({ optStatus: 'opted_out' })
      .where(eq(sectionMembers.userId, made.id));
    expect((await sectionsOf(demo)).map((s) => s.optStatus)).toContain('opted_in');
  });

  it('like the EULA-less demo student and the bookstore manager: EULA state, roles and flags', async () => {
    const eula = await makeUser(database.db, { like: 'neweula' });
    expect((await contextOf(eula.id)).user).toMatchObject({ mustAcceptEula: true });
    const bookstore = await makeUser(database.db, { like: 'bookstore' });
    expect((await contextOf(bookstore.id)).user).toMatchObject({
      firstName: 'Jordan',
      roles: ['bookstore_manager'],
      flags: { isBookstoreManager: true, hasAccessToBsmProductRequests: true },
    });
  });

  it('without like: an account in no section that owns nothing', async () => {
    const made = await makeUser(database.db, {});
    expect(await sectionsOf(made.id)).toEqual([]);
    expect(await ownedProducts(await contextOf(made.id))).toEqual([]);
    expect((await contextOf(made.id)).user).toMatchObject({ mustAcceptEula: false, roles: [] });
  });
});

describe('makeRedeemCode', () => {
  it("gives the demo code's product once, and leaves the demo code unused", async () => {
    const code = await makeRedeemCode(database.db, TEST_ACCESS_CODE_KEY);
    const made = await makeUser(database.db, {});
    const ctx = { ...(await contextOf(made.id)), ipAddress: unique('ip') };
    const redeemed = await redeemCode(ctx, code);
    const other = await makeUser(database.db, {});
    await expect(
      redeemCode({ ...(await contextOf(other.id)), ipAddress: unique('ip') }, code),
    ).rejects.toThrow();
    const demo = await redeemCode(
      { ...(await contextOf(other.id)), ipAddress: unique('ip') },
      'SHELF-DEMO-2026',
    );
    expect(demo.productId).toBe(redeemed.productId);
  });
});
