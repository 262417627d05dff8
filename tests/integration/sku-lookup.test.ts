import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { offerings } from '#db/schema/catalog.ts';
import { courseSections, courses, sectionMembers, sectionProducts } from '#db/schema/courses.ts';
import { organizations } from '#db/schema/sites.ts';
import { isbn13CheckDigit, isbn13To10 } from '#domain/catalog/isbn.ts';
import { skuReadings } from '#domain/catalog/sku.ts';
import { lookUpSku } from '#domain/catalog/sku-lookup.ts';
import { Invalid } from '#domain/shared/errors.ts';
import { insertProduct, uniqueDigits } from '#tests/builders.ts';
import { openTestDatabase, testContext, unique } from '#tests/database.ts';

// SKU Lookup (spec 1 §2 user menu, "Bookstore Manager: SKU Lookup"): a product by any of its
// numbers as typed, with its offerings (price, stock, offered or why not), whether a student
// can buy it here now, and only the staff member's own campuses' running sections listing it.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** A valid ISBN-13 of the 978 prefix (so it has an ISBN-10 too), unique to this test. */
function newIsbn13(): string {
  const body = `978${uniqueDigits(9)}`;
  return body + isbn13CheckDigit(body);
}

async function org(): Promise<number> {
  const [row] = await database.db
    .insert(organizations)
    .values({ title: unique('Campus') })
    .returning({ id: organizations.id });
  return row!.id;
}

async function sectionListing(
  orgId: number,
  productId: number,
  input: {
    number: string;
    isRequired?: boolean;
    ended?: boolean;
    students?: number;
    optedOut?: number;
  },
): Promise<number> {
  const [course] = await database.db
    .insert(courses)
    .values({ orgId, name: 'Organic Chemistry', department: 'CHEM', number: '240' })
    .returning({ id: courses.id });
  const [section] = await database.db
    .insert(courseSections)
    .values({
      courseId: course!.id,
      name: `CHEM 240 - ${input.number}`,
      number: input.number,
      rsCourseId: unique('RSC'),
      startDate: '2026-08-25',
      endDate: '2026-12-15',
      addDropAt: new Date('2026-09-05T00:00:00Z'),
      endedAt: input.ended ? new Date('2026-10-01T00:00:00Z') : null,
    })
    .returning({ id: courseSections.id });
  await database.db
    .insert(sectionProducts)
    .values({ sectionId: section!.id, productId, isRequired: input.isRequired ?? true });
  const students = input.students ?? 0;
  for (let i = 0; i < students; i += 1) {
    const [user] = await database.db
      .insert(users)
      .values({ email: `${unique('sku-student')}@campus.example` })
      .returning({ id: users.id });
    await database.db.insert(sectionMembers).values({
      sectionId: section!.id,
      userId: user!.id,
      role: 'student',
      optStatus: i < (input.optedOut ?? 0) ? 'opted_out' : 'opted_in',
      addDropDate: new Date('2026-09-05T00:00:00Z'),
      rsCoursememberId: unique('RSM'),
    });
  }
  return section!.id;
}

describe('SKU Lookup (spec 1 §2 user menu, Bookstore Manager)', () => {
  it('finds a product by its ISBN-13 with hyphens, or its ISBN-10, with every offering and its stock', async () => {
    const isbn = newIsbn13();
    const productId = await insertProduct(
      database.db,
      { title: unique('Organic Chemistry') },
      { identifiers: [{ type: 'ISBN13', value: isbn }], priceCents: 8950 },
    );
    await database.db.insert(offerings).values([
      { productId, type: 'physical', bookType: 'print', priceCents: 12_000, stock: 7 },
      {
        productId,
        type: 'physical',
        bookType: 'print',
        priceCents: 9_000,
        stock: 0,
        isActive: false,
      },
    ]);
    const ctx = testContext(database.db);
    const hyphenated = `${isbn.slice(0, 3)}-${isbn.slice(3, 4)}-${isbn.slice(4, 8)}-${isbn.slice(8, 12)}-${isbn.slice(12)}`;
    const byThirteen = await lookUpSku(ctx, { kind: 'all' }, ` ${hyphenated} `);
    const byTen = await lookUpSku(ctx, { kind: 'all' }, isbn13To10(isbn)!);
    expect(byTen.products).toEqual(byThirteen.products);
    expect(byThirteen.products).toHaveLength(1);
    const [found] = byThirteen.products;
    expect(found).toMatchObject({
      id: productId,
      identifiers: [{ type: 'ISBN13', value: isbn }],
      unavailable: null,
      sections: [],
      moreSections: 0,
    });
    expect(
      found!.offerings.map(({ type, priceCents, stock, offered, isActive }) => ({
        type,
        priceCents,
        stock,
        offered,
        isActive,
      })),
    ).toEqual([
      { type: 'digital', priceCents: 8950, stock: null, offered: true, isActive: true },
      { type: 'physical', priceCents: 12_000, stock: 7, offered: true, isActive: true },
      { type: 'physical', priceCents: 9_000, stock: 0, offered: false, isActive: false },
    ]);
  });

  it('an e-book without its reader file is found, its digital offering not offered; a withdrawn product says so', async () => {
    const isbn = newIsbn13();
    await insertProduct(
      database.db,
      {},
      { identifiers: [{ type: 'EISBN13', value: isbn }], readerFile: false },
    );
    const [found] = (await lookUpSku(testContext(database.db), { kind: 'all' }, isbn)).products;
    expect(found!.offerings).toMatchObject([{ type: 'digital', offered: false, isActive: true }]);
    expect(found!.unavailable).toBe('file');
    // Withdrawn and deleted products (each its own: product facts are cached per process).
    const withdrawnIsbn = newIsbn13();
    await insertProduct(
      database.db,
      { status: 'withdrawn' },
      { identifiers: [{ type: 'ISBN13', value: withdrawnIsbn }] },
    );
    const [withdrawn] = (await lookUpSku(testContext(database.db), { kind: 'all' }, withdrawnIsbn))
      .products;
    expect(withdrawn!.unavailable).toBe('removed');
    const deletedIsbn = newIsbn13();
    await insertProduct(
      database.db,
      { status: 'deleted' },
      { identifiers: [{ type: 'ISBN13', value: deletedIsbn }] },
    );
    expect(
      (await lookUpSku(testContext(database.db), { kind: 'all' }, deletedIsbn)).products,
    ).toEqual([]);
  });

  it("lists only the staff member's own campuses' running sections, with students and how many opted in", async () => {
    const isbn = newIsbn13();
    const productId = await insertProduct(
      database.db,
      {},
      { identifiers: [{ type: 'ISBN13', value: isbn }] },
    );
    const mine = await org();
    const theirs = await org();
    const running = await sectionListing(mine, productId, {
      number: '001',
      students: 3,
      optedOut: 1,
    });
    // The same section lists it a second time, as the other half of a print/digital choice.
    const other13 = newIsbn13();
    const printTwin = await insertProduct(
      database.db,
      {},
      { identifiers: [{ type: 'ISBN13', value: other13 }] },
    );
    await database.db.insert(sectionProducts).values({
      sectionId: running,
      productId: printTwin,
      additionalProductId: productId,
      isPhysicalDigitalChoice: true,
      isRequired: false,
    });
    await sectionListing(mine, productId, { number: '002', ended: true, students: 1 });
    const other = await sectionListing(theirs, productId, { number: '003', isRequired: false });
    const ctx = testContext(database.db);
    const [bookstore] = (await lookUpSku(ctx, { kind: 'orgs', orgIds: [mine] }, isbn)).products;
    expect(bookstore!.sections).toEqual([
      {
        id: running,
        course: 'CHEM 240',
        courseName: 'Organic Chemistry',
        sectionNumber: '001',
        term: null,
        startDate: '2026-08-25',
        isRequired: true,
        students: 3,
        optedIn: 2,
      },
    ]);
    const [manager] = (await lookUpSku(ctx, { kind: 'all' }, isbn)).products;
    expect(manager!.sections.map((s) => s.id).sort()).toEqual([running, other].sort());
    const [nobody] = (await lookUpSku(ctx, { kind: 'orgs', orgIds: [] }, isbn)).products;
    expect(nobody!.sections).toEqual([]);
  });

  it('a number nobody carries finds nothing; empty and non-numbers are refused with what to type', async () => {
    expect(
      (await lookUpSku(testContext(database.db), { kind: 'all' }, newIsbn13())).products,
    ).toEqual([]);
    expect(() => skuReadings('   ')).toThrow(Invalid);
    expect(() => skuReadings('')).toThrowError(
      expect.objectContaining({ messageKey: 'skuLookup.error.empty' }),
    );
    for (const bad of ['organic chemistry', '12345678', '9'.repeat(17), `978${'-'.repeat(60)}0`]) {
      expect(() => skuReadings(bad), bad).toThrowError(
        expect.objectContaining({ messageKey: 'skuLookup.error.shape' }),
      );
    }
    expect(skuReadings('0-306-40615-2')).toEqual(['0306406152', '9780306406157']);
  });
});
