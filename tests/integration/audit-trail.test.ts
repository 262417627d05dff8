import { eq } from 'drizzle-orm';
import { createElement } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { academicTerms } from '#db/schema/courses.ts';
import { organizations } from '#db/schema/sites.ts';
import { auditTrail, recordAudit, systemActor } from '#domain/operations/audit.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, unique } from '#tests/database.ts';
import { renderPage, tableRows } from '#tests/render-page.tsx';
import { AuditTrail } from '#web/manage/audit-trail.tsx';

// Issue 39: "the audit is readable on the object's page" — the trail names the people a line
// mentions (the account acted as, a member's userId), so the page shows a name, not "userId: 53";
// the same for the terms and products a line names (termId, productId).
// On PGlite, and on PostgreSQL with DATABASE_URL.

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function person(firstName: string, lastName: string): Promise<number> {
  const [row] = await database.db
    .insert(users)
    .values({ email: `${unique('audit')}@example.test`, firstName, lastName })
    .returning({ id: users.id });
  return row!.id;
}

describe('auditTrail (issue 39)', () => {
  it('names the people each line mentions; an unknown id is left to the page’s “person #id”', async () => {
    const manager = await person('Alex', 'Morgan');
    const member = await person('Sam', 'Lee');
    const unnamed = await person('', '');
    const objectId = unique('section');
    await recordAudit(
      database.db,
      { userId: manager, actingAsUserId: member, label: 'Alex Morgan <alex@example.test>' },
      {
        orgId: null,
        objectType: 'section',
        objectId,
        action: 'member.add',
        after: { userId: unnamed, role: 'student' },
      },
      new Date('2026-12-01T12:00:00Z'),
    );
    await recordAudit(
      database.db,
      systemActor('roster import'),
      {
        orgId: null,
        objectType: 'section',
        objectId,
        action: 'member.end',
        before: { userId: 2_000_000_000, role: 'student' },
      },
      new Date('2026-12-02T12:00:00Z'),
    );
    const [ended, added] = await auditTrail(database.db, 'section', objectId);
    expect(ended!.action).toBe('member.end');
    expect(ended!.people).toEqual({});
    const [email] = await database.db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, unnamed));
    expect(added!.people).toEqual({ [member]: 'Sam Lee', [unnamed]: email!.email });
  });

  it('names the terms and products each line mentions, and the page shows them by name in both languages', async () => {
    const [org] = await database.db
      .insert(organizations)
      .values({ title: unique('Riverbend') })
      .returning({ id: organizations.id });
    const terms = await database.db
      .insert(academicTerms)
      .values([
        { orgId: org!.id, title: 'Fall 2026', startDate: '2026-08-24', endDate: '2026-12-15' },
        { orgId: org!.id, title: 'Winter 2027', startDate: '2027-01-11', endDate: '2027-04-30' },
      ])
      .returning({ id: academicTerms.id });
    const [fall, winter] = terms.map((t) => t.id);
    const title = unique('Campbell Biology');
    const product = await insertProduct(database.db, { title });
    const objectId = unique('section');
    const manager = systemActor('Alex Morgan <alex@example.test>');
    const section = { orgId: org!.id, objectType: 'section', objectId };
    await recordAudit(
      database.db,
      manager,
      { ...section, action: 'section.edit', before: { termId: fall! }, after: { termId: winter! } },
      new Date('2026-12-01T12:00:00Z'),
    );
    await recordAudit(
      database.db,
      manager,
      { ...section, action: 'material.add', after: { productId: product, required: true } },
      new Date('2026-12-02T12:00:00Z'),
    );
    const lines = await auditTrail(database.db, 'section', objectId);
    expect(lines.map((line) => [line.terms, line.products])).toEqual([
      [{}, { [product]: title }],
      [{ [fall!]: 'Fall 2026', [winter!]: 'Winter 2027' }, {}],
    ]);
    // What the manager reads: the before → after columns of each line, newest first.
    const page = (locale: 'en' | 'fr-CA') =>
      renderPage(
        locale,
        () => createElement(AuditTrail, { lines, timeZone: 'America/Toronto' }),
        null,
      );
    const changes = (html: string, caption: string) =>
      tableRows(html, caption)
        .slice(1)
        .map((row) => row.slice(2));
    expect(changes(await page('en'), 'Change history')).toEqual([
      // (jsonb keeps its keys shortest first.)
      ['Material adopted', '—', `Required: Yes Product: ${title}`],
      ['Section changed', 'Term: Fall 2026', 'Term: Winter 2027'],
    ]);
    expect(changes(await page('fr-CA'), 'Historique des modifications')).toEqual([
      ['Matériel adopté', '—', `Obligatoire : Oui Produit : ${title}`],
      ['Section modifiée', 'Session : Fall 2026', 'Session : Winter 2027'],
    ]);
  });
});
