import { and, eq, gt, lt } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { signInSteps } from '#db/schema/second-factor.ts';
import { SIGN_IN_STEP_TTL_MS } from './second-factor.ts';
import { newToken, tokenDigest } from './session-token.ts';

// A step of a sign-in kept between two requests (a WebAuthn challenge, a sign-in waiting for
// its code or its enrolment): found by the digest of a random cookie value, short-lived, and
// used once (issue 20). No session exists until the last step is done.

export type StepKind = 'passkey-register' | 'passkey-sign-in' | 'second-factor' | 'enrol';

export type SignInStepRow = typeof signInSteps.$inferSelect;

export async function openStep(
  db: Queryable,
  input: {
    kind: StepKind;
    now: Date;
    userId?: number | null;
    challenge?: string | null;
    next?: string | null;
    anonymousKey?: string | null;
  },
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(input.now.getTime() + SIGN_IN_STEP_TTL_MS);
  // Old steps go as new ones come: the table holds minutes of sign-ins, not history.
  await db.delete(signInSteps).where(lt(signInSteps.expiresAt, input.now));
  await db.insert(signInSteps).values({
    idHash: tokenDigest(token),
    kind: input.kind,
    userId: input.userId ?? null,
    challenge: input.challenge ?? null,
    next: input.next ?? null,
    anonymousKey: input.anonymousKey ?? null,
    expiresAt,
  });
  return { token, expiresAt };
}

/** The live step of this kind behind a cookie value, without using it up. */
export async function findStep(
  db: Queryable,
  token: string | null | undefined,
  kind: StepKind,
  now: Date,
): Promise<SignInStepRow | null> {
  if (!token || token.length > 100) return null;
  const [row] = await db
    .select()
    .from(signInSteps)
    .where(
      and(
        eq(signInSteps.idHash, tokenDigest(token)),
        eq(signInSteps.kind, kind),
        gt(signInSteps.expiresAt, now),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Uses the step up: whoever deletes it first had it; a second use finds nothing. */
export async function takeStep(
  db: Queryable,
  token: string | null | undefined,
  kind: StepKind,
  now: Date,
): Promise<SignInStepRow | null> {
  if (!token || token.length > 100) return null;
  const [row] = await db
    .delete(signInSteps)
    .where(
      and(
        eq(signInSteps.idHash, tokenDigest(token)),
        eq(signInSteps.kind, kind),
        gt(signInSteps.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
}
