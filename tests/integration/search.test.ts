import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { offerings, products } from '#db/schema/catalog.ts';
import { courseSections, courses, departments, sectionProducts } from '#db/schema/courses.ts';
import { organizations } from '#db/schema/sites.ts';
import { SEARCH_WINDOW, searchCatalog } from '#domain/catalog/search.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { insertProduct, makeProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, unique } from '#tests/database.ts';

let database: DatabaseHandle;
let ctx: RequestContext;
// A word no other row has, different in all its trigrams from the other tests' words.
const fresh = () => `q${Math.random().toString(36).slice(2, 10)}${Date.now().toString(36)}`;

beforeAll(async () => {
  database = await openTestDatabase();
  ctx = testContext(database.db);
});
afterAll(async () => {
  await database?.close();
});

describe('catalog search (issue 3; DESIGN.md Search)', () => {
  it('finds a book by ISBN-10 with hyphens through its ISBN-13, before text matches', async () => {
    const word = fresh();
    const isbn13 = '9780306406157';
    const textHit = await insertProduct(ctx.db, {
      title: `Signal Theory ${word}`,
      description: `mentions 9780306406157 ${word}`,
    });
    const id = await insertProduct(
      ctx.db,
      { title: `Measurement ${word}` },
      { identifiers: [{ type: 'ISBN13', value: isbn13 }] },
    ).catch(async () => {
      // The fixed ISBN may exist from an earlier run on the same server: find that product instead.
      const found = await searchCatalog(ctx, isbn13);
      return found.ok ? found.results[0]!.id : 0;
    });
    const outcome = await searchCatalog(ctx, '0-306-40615-2');
    expect(outcome.ok && outcome.results[0]?.id).toBe(id);
    expect(textHit).toBeGreaterThan(0);
  });

  it('ranks a title match above a description match', async () => {
    const word = fresh();
    const inDescription = await insertProduct(ctx.db, {
      title: `Plain ${word}a`,
      description: `all about thermodynamics ${word}b`,
    });
    const inTitle = await insertProduct(ctx.db, { title: `Thermodynamics ${word}b` });
    const outcome = await searchCatalog(ctx, `thermodynamics ${word}b`);
    if (!outcome.ok) throw new Error('expected results');
    const ids = outcome.results.map((r) => r.id);
    expect(ids.indexOf(inTitle)).toBeLessThan(ids.indexOf(inDescription));
  });

  it("tolerates a typo: 'calculsu' still finds calculus", async () => {
    const word = fresh();
    const id = await insertProduct(ctx.db, { title: `Calculus ${word}c` });
    const outcome = await searchCatalog(ctx, `calculsu ${word}c`);
    expect(outcome.ok && outcome.results.map((r) => r.id)).toContain(id);
  });

  it('leaves out deleted and withdrawn products, and cuts descriptions to 30 words', async () => {
    const word = fresh();
    const long = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const shown = await insertProduct(ctx.db, { title: `Visible ${word}d`, description: long });
    await insertProduct(ctx.db, { title: `Deleted ${word}d`, status: 'deleted' });
    await insertProduct(ctx.db, { title: `Withdrawn ${word}d`, status: 'withdrawn' });
    const outcome = await searchCatalog(ctx, `${word}d`);
    if (!outcome.ok) throw new Error('expected results');
    expect(outcome.results.map((r) => r.id)).toEqual([shown]);
    expect(outcome.results[0]!.description.split(' ')).toHaveLength(30);
  });

  it('spec 1 §4: a card shows the lowest active price; a book without offers shows Code Only', async () => {
    const word = fresh();
    const priced = await insertProduct(ctx.db, { title: `Priced ${word}` }, { priceCents: 4999 });
    await ctx.db.insert(offerings).values([
      {
        productId: priced,
        type: 'digital',
        bookType: 'digital',
        priceCents: 6999,
        durationDays: 365,
      },
      { productId: priced, type: 'digital', bookType: 'digital', priceCents: 999, isActive: false },
    ]);
    const codeOnly = await insertProduct(
      ctx.db,
      { title: `Codeonly ${word}` },
      { priceCents: null },
    );
    const outcome = await searchCatalog(ctx, word);
    if (!outcome.ok) throw new Error('expected results');
    const byId = new Map(outcome.results.map((r) => [r.id, r.price]));
    expect(byId.get(priced)).toEqual({ kind: 'price', cents: 4999, currency: 'USD' });
    expect(byId.get(codeOnly)).toEqual({ kind: 'codeOnly' });
  });

  it('refuses empty and over-long terms', async () => {
    expect(await searchCatalog(ctx, '  ')).toEqual({ ok: false, reason: 'empty' });
    expect(await searchCatalog(ctx, 'x'.repeat(1001))).toEqual({ ok: false, reason: 'tooLong' });
  });

  it('survives hostile input', async () => {
    for (const terms of [
      "'; drop table products; --",
      '!!!',
      '&|<->',
      '"unterminated',
      '\\\\',
      '%_%',
    ]) {
      const outcome = await searchCatalog(ctx, terms);
      expect(outcome.ok).toBe(true);
    }
  });

  it('finds an author by first and last name (names are not stemmed)', async () => {
    const last = fresh();
    const id = await insertProduct(ctx.db, { authors: `Zanele ${last}` });
    const outcome = await searchCatalog(ctx, `Zanele ${last}`);
    expect(outcome.ok && outcome.results.map((r) => r.id)).toEqual([id]);
  });

  it('a very common word answers its best SEARCH_WINDOW matches and says there are more', async () => {
    const word = fresh();
    await ctx.db
      .insert(products)
      .values(
        Array.from({ length: SEARCH_WINDOW + 5 }, () =>
          makeProduct({ description: `about ${word}` }),
        ),
      );
    const titled = await insertProduct(ctx.db, { title: `The ${word} handbook` });
    const outcome = await searchCatalog(ctx, word);
    if (!outcome.ok) throw new Error('search failed');
    expect(outcome.count).toBe(SEARCH_WINDOW);
    expect(outcome.more).toBe(true);
    expect(outcome.pages).toBe(SEARCH_WINDOW / 100);
    // Both words narrow it to the one title, ranked first.
    const both = await searchCatalog(ctx, `${word} handbook`);
    expect(both.ok && both.results[0]?.id).toBe(titled);
  });

  it('a full title with stop words finds the book; every other word is required', async () => {
    const word = fresh();
    const id = await insertProduct(ctx.db, {
      title: `Fundamentals of ${word} Studies`,
      authors: "Siobhan O'Connell",
    });
    const other = await insertProduct(ctx.db, { title: `Fundamentals of ${word} Practice` });
    const full = await searchCatalog(ctx, `Fundamentals of ${word} Studies`);
    expect(full.ok && full.results.map((r) => r.id)).toEqual([id]);
    // The stem and the word as written both count: 'studying' reads as 'studi'.
    const stemmed = await searchCatalog(ctx, `studying ${word}`);
    expect(stemmed.ok && stemmed.results.map((r) => r.id)).toEqual([id]);
    // An author's name with an apostrophe, and the words in another order.
    const author = await searchCatalog(ctx, `${word} O'Connell`);
    expect(author.ok && author.results.map((r) => r.id)).toEqual([id]);
    const both = await searchCatalog(ctx, `fundamentals ${word}`);
    expect(both.ok && both.results.map((r) => r.id).sort()).toEqual([id, other].sort());
  });
});

describe('search by course code and edition (issue 19)', () => {
  /** A school whose BIO 101 (Biology) section adopted a textbook and an optional workbook. */
  async function bio101Section({ name = 'Principles of Life', number = '101' } = {}) {
    const db = ctx.db;
    const [org] = await db
      .insert(organizations)
      .values({ title: unique('Course Code College') })
      .returning({ id: organizations.id });
    await db
      .insert(departments)
      .values({ orgId: org!.id, code: 'BIO', name: 'Biology', nameFrCa: 'Biologie' });
    const [course] = await db
      .insert(courses)
      .values({ orgId: org!.id, name, department: 'BIO', number })
      .returning({ id: courses.id });
    const [section] = await db
      .insert(courseSections)
      .values({
        courseId: course!.id,
        name: 'BIO 101',
        number: '001',
        rsCourseId: unique('RS'),
        startDate: '2026-08-24',
        endDate: '2026-12-15',
        addDropAt: new Date('2026-09-07T12:00:00Z'),
      })
      .returning({ id: courseSections.id });
    const word = fresh();
    const optional = await insertProduct(db, { title: `Lab Notebook ${word}` });
    const required = await insertProduct(db, { title: `Life Sciences ${word}` });
    await db.insert(sectionProducts).values([
      { sectionId: section!.id, productId: optional, position: 0, isRequired: false },
      { sectionId: section!.id, productId: required, position: 1 },
    ]);
    // A book whose words match 'Biology 101' but which no course adopted.
    const textOnly = await insertProduct(db, { title: `Biology 101 Review ${word}` });
    return { required, optional, textOnly };
  }

  it("issue 19: 'BIO 101', 'BIO101', 'bio-101' and 'Biology 101' find the section's materials first, required first", async () => {
    const { required, optional, textOnly } = await bio101Section();
    for (const terms of ['BIO 101', 'BIO101', 'bio-101', 'Biology 101', 'biologie 101']) {
      const outcome = await searchCatalog(ctx, terms);
      if (!outcome.ok) throw new Error(`no results for ${terms}`);
      const ids = outcome.results.map((r) => r.id);
      const adopted = ids.slice(0, outcome.courseMatches);
      expect(adopted, terms).toContain(required);
      expect(adopted, terms).toContain(optional);
      expect(adopted.indexOf(required), terms).toBeLessThan(adopted.indexOf(optional));
      expect(outcome.course, terms).toMatchObject({ number: '101' });
      if (terms === 'Biology 101') {
        expect(ids.indexOf(textOnly)).toBeGreaterThan(ids.indexOf(optional));
      }
    }
  });

  it("issue 38: a misspelt department ('biolgy 101', 'Biologi 101') finds the course's materials as 'BIO 101' does", async () => {
    // A number of this test alone: every run's schools have a Biology department.
    const number = `${randomInt(1000, 10000)}${String.fromCharCode(65 + randomInt(26))}`;
    const { required, optional } = await bio101Section({ number });
    for (const terms of [`biolgy ${number}`, `Biologi ${number}`, `BIO ${number}`]) {
      const outcome = await searchCatalog(ctx, terms);
      if (!outcome.ok) throw new Error(`no results for ${terms}`);
      const adopted = outcome.results.map((r) => r.id).slice(0, outcome.courseMatches);
      expect(adopted, terms).toEqual([required, optional]);
      expect(outcome.course, terms).toMatchObject({ number });
    }
  });

  it("issue 38: a course's own name, typed right or nearly, finds its materials; one of its words does not", async () => {
    // Letters only: a name ending in digits ('…cyer56') reads as a department and a course
    // number, which is another search (the one above).
    const word = fresh().replace(/\d/g, 'x');
    const { required, optional } = await bio101Section({ name: `Principles of ${word}` });
    const misspelt = `${word.slice(0, 6)}${word.slice(7)}`;
    for (const terms of [
      `Principles of ${word}`,
      `PRINCIPLES  OF ${word}`,
      `principals of ${misspelt}`,
    ]) {
      const outcome = await searchCatalog(ctx, terms);
      if (!outcome.ok) throw new Error(`no results for ${terms}`);
      const adopted = outcome.results.map((r) => r.id).slice(0, outcome.courseMatches);
      expect(adopted, terms).toEqual([required, optional]);
      expect(outcome.course, terms).toEqual({ subject: 'BIO', number: '101' });
    }
    // One word of the name is no course's name: searched as a word.
    for (const terms of ['Principles', word]) {
      const outcome = await searchCatalog(ctx, terms);
      expect(outcome.ok && outcome.courseMatches, terms).toBe(0);
    }
  });

  it("issue 19: 'Cell Biology 11th edition' finds the 11th edition, not the 10th", async () => {
    const word = fresh();
    const eleventh = await insertProduct(ctx.db, {
      title: `Cell Biology ${word}`,
      editionNumber: 11,
    });
    await insertProduct(ctx.db, { title: `Cell Biology ${word}`, editionNumber: 10 });
    const outcome = await searchCatalog(ctx, `Cell Biology ${word} 11th edition`);
    expect(outcome.ok && outcome.results.map((r) => r.id)).toEqual([eleventh]);
    // No 7th edition: the title's words still answer, every edition.
    const none = await searchCatalog(ctx, `Cell Biology ${word} 7th edition`);
    expect(none.ok && none.results).toHaveLength(2);
  });

  it("issue 19: '2nd ed.' and 'second edition' match on the edition number", async () => {
    const word = fresh();
    const second = await insertProduct(ctx.db, { title: `Anatomy ${word}`, editionNumber: 2 });
    await insertProduct(ctx.db, { title: `Anatomy ${word}`, editionNumber: 3 });
    for (const terms of [
      `${word} 2nd ed.`,
      `${word}, second edition`,
      `Anatomy ${word} 2e édition`,
    ]) {
      const outcome = await searchCatalog(ctx, terms);
      expect(outcome.ok && outcome.results.map((r) => r.id), terms).toEqual([second]);
    }
    // The edition alone: products of that edition.
    const alone = await searchCatalog(ctx, '2nd ed.');
    if (!alone.ok) throw new Error('expected results');
    expect(alone.count).toBeGreaterThan(0);
  });
});
