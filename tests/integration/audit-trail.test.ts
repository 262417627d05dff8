import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { auditTrail, recordAudit, systemActor } from '#domain/operations/audit.ts';
import { openTestDatabase, unique } from '#tests/database.ts';

// Issue 39: "the audit is readable on the object's page" — the trail names the people a line
// mentions (the account acted as, a member's userId), so the page shows a name, not "userId: 53".
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
});
