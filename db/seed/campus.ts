// The demo campus with single sign-on (issue 20, decision 023): Northfield State University
// signs its students in at a local test OpenID provider (server/dev-campus-idp.ts), which
// `npm start` runs on 127.0.0.1:DEV_CAMPUS_IDP_PORT outside production.
import { and, eq, inArray, like, ne } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { campusIdentities, campusSignIns } from '#db/schema/campus-sign-in.ts';
import { sectionMembers } from '#db/schema/courses.ts';
import { sectionInvitations } from '#db/schema/section-invitations.ts';
import type { DemoSections } from './courses.ts';
import type { DemoOrgs } from './sites.ts';

export const DEMO_CAMPUS_IDP_PORT = 3011;
export const DEMO_CAMPUS_ISSUER = `http://127.0.0.1:${DEMO_CAMPUS_IDP_PORT}`;
export const DEMO_CAMPUS_CLIENT_ID = 'shelfmark-demo';
export const DEMO_CAMPUS_DOMAIN = 'campus.shelfmark.test';
/** The local provider's password for its people (a demo: printed in the README). */
export const DEMO_CAMPUS_PASSWORD = 'campus-demo';

/** The people the local provider knows: `sub` is their stable campus identifier. */
export const DEMO_CAMPUS_PEOPLE = [
  {
    sub: 'nsu-1001',
    email: `student@${DEMO_CAMPUS_DOMAIN}`,
    givenName: 'Jordan',
    familyName: 'Rivera',
    studentId: '1001',
  },
  {
    // Not in Shelfmark yet: the first campus sign-in makes the account.
    sub: 'nsu-1002',
    email: `newstudent@${DEMO_CAMPUS_DOMAIN}`,
    givenName: 'Camille',
    familyName: 'Tremblay',
    studentId: '1002',
  },
] as const;

export async function seedCampusSignIn(
  db: Queryable,
  orgs: DemoOrgs,
  sections: DemoSections,
  now: Date,
): Promise<void> {
  const [campus] = await db
    .insert(campusSignIns)
    .values({
      orgId: orgs.campus,
      protocol: 'oidc',
      emailDomains: [DEMO_CAMPUS_DOMAIN],
      oidcIssuer: DEMO_CAMPUS_ISSUER,
      oidcClientId: DEMO_CAMPUS_CLIENT_ID,
      // The student number comes with the campus's own scope (issue 37).
      oidcScopes: 'openid email profile campus_id',
      campusIdAttribute: 'student_id',
    })
    .returning({ id: campusSignIns.id });
  const person = DEMO_CAMPUS_PEOPLE[0];
  const [student] = await db
    .insert(users)
    .values({
      email: person.email,
      firstName: person.givenName,
      lastName: person.familyName,
      orgId: orgs.campus,
      passwordHash: null,
      mustAcceptEula: false,
      eulaAcceptedAt: now,
    })
    .returning({ id: users.id });
  await db.insert(campusIdentities).values({
    userId: student!.id,
    campusSignInId: campus!.id,
    issuer: DEMO_CAMPUS_ISSUER,
    subject: person.sub,
    campusId: person.studentId,
  });
  await db.insert(sectionMembers).values(
    (['hist001', 'psy001'] as const).map((key, i) => ({
      sectionId: sections[key].id,
      userId: student!.id,
      role: 'student' as const,
      optStatus: 'opted_in' as const,
      addDropDate: sections[key].addDropAt,
      rsCoursememberId: `RSM-CAMPUS-${i + 1}`,
    })),
  );
  // The second person has no account yet: the bookstore kept a place in PSY for their campus
  // address, which their first campus sign-in takes (issue 20).
  await db.insert(sectionInvitations).values({
    sectionId: sections.psy001.id,
    email: DEMO_CAMPUS_PEOPLE[1].email,
    role: 'student',
    addDropDate: sections.psy001.addDropAt,
  });
}

/**
 * The demo campus follows its local provider when DEV_CAMPUS_IDP_PORT moves it off 3011 (a
 * second store on this machine): its issuer, and the seeded student's identity under it. Only
 * the demo's own rows change: its client id on a loopback issuer.
 */
export async function pointDemoCampusAt(db: Queryable, port: number): Promise<void> {
  const issuer = `http://127.0.0.1:${port}`;
  const moved = await db
    .update(campusSignIns)
    .set({ oidcIssuer: issuer })
    .where(
      and(
        eq(campusSignIns.oidcClientId, DEMO_CAMPUS_CLIENT_ID),
        like(campusSignIns.oidcIssuer, 'http://127.0.0.1:%'),
        ne(campusSignIns.oidcIssuer, issuer),
      ),
    )
    .returning({ id: campusSignIns.id });
  if (moved.length === 0) return;
  await db
    .update(campusIdentities)
    .set({ issuer })
    .where(
      inArray(
        campusIdentities.campusSignInId,
        moved.map((row) => row.id),
      ),
    );
}
