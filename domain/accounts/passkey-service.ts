import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { and, asc, eq } from 'drizzle-orm';
import { users } from '#db/schema/accounts.ts';
import { passkeys } from '#db/schema/second-factor.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { NotFound } from '#domain/shared/errors.ts';
import { SIGN_IN_STEP_TTL_MS } from './second-factor.ts';
import { queueSecurityNotice } from './security-notice.ts';
import { openStep, takeStep } from './sign-in-steps.ts';

// Passkeys (issue 20, decision 021) on @simplewebauthn/server. The relying party is the site
// the request came to: its host name is the RP ID and its origin the only origin accepted.
// Challenges are random, kept as single-use steps bound to a cookie, and live five minutes;
// sign-ins are usernameless (discoverable credentials) and require user verification; the
// library refuses a signature counter that did not move forward.

export type RelyingParty = { id: string; name: string; origin: string };

export type PasskeyRow = { id: number; name: string; createdAt: Date; lastUsedAt: Date | null };

export async function listPasskeys(ctx: RequestContext, userId: number): Promise<PasskeyRow[]> {
  return ctx.db
    .select({
      id: passkeys.id,
      name: passkeys.name,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
    })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
}

export async function passkeyRegistrationOptions(
  ctx: RequestContext,
  input: { userId: number; rp: RelyingParty },
): Promise<{ options: PublicKeyCredentialCreationOptionsJSON; token: string }> {
  const [user] = await ctx.db
    .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, input.userId));
  if (!user) throw new NotFound();
  const existing = await ctx.db
    .select({ credentialId: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, input.userId));
  const options = await generateRegistrationOptions({
    rpName: input.rp.name,
    rpID: input.rp.id,
    userName: user.email,
    userDisplayName: `${user.firstName} ${user.lastName}`.trim() || user.email,
    userID: new TextEncoder().encode(`shelfmark-user-${input.userId}`),
    timeout: SIGN_IN_STEP_TTL_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.credentialId, transports: c.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  const { token } = await openStep(ctx.db, {
    kind: 'passkey-register',
    now: ctx.now,
    userId: input.userId,
    challenge: options.challenge,
  });
  return { options, token };
}

export type PasskeyOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; reason: 'expired' | 'invalid' };

export async function addPasskey(
  ctx: RequestContext,
  input: {
    userId: number;
    token: string | null;
    name: string;
    response: RegistrationResponseJSON;
    rp: RelyingParty;
  },
): Promise<PasskeyOutcome<number>> {
  const step = await takeStep(ctx.db, input.token, 'passkey-register', ctx.now);
  if (!step?.challenge || step.userId !== input.userId) return { ok: false, reason: 'expired' };
  let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo'];
  try {
    const verified = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: step.challenge,
      expectedOrigin: input.rp.origin,
      expectedRPID: input.rp.id,
      requireUserVerification: true,
    });
    info = verified.verified ? verified.registrationInfo : undefined;
  } catch {
    info = undefined;
  }
  if (!info) return { ok: false, reason: 'invalid' };
  const credential = info.credential;
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(passkeys)
      .values({
        userId: input.userId,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        signCount: credential.counter,
        transports: credential.transports ?? [],
        name: input.name,
        createdAt: ctx.now,
      })
      .onConflictDoNothing()
      .returning({ id: passkeys.id });
    if (!row) return null;
    await queueSecurityNotice(tx, {
      userId: input.userId,
      event: 'passkey-added',
      now: ctx.now,
      detail: input.name,
    });
    return row.id;
  });
  return id ? { ok: true, value: id } : { ok: false, reason: 'invalid' };
}

export async function passkeySignInOptions(
  ctx: RequestContext,
  input: { rp: RelyingParty; next: string; anonymousKey: string | null },
): Promise<{ options: PublicKeyCredentialRequestOptionsJSON; token: string }> {
  // Usernameless: no allowCredentials, the authenticator offers the site's passkeys.
  const options = await generateAuthenticationOptions({
    rpID: input.rp.id,
    timeout: SIGN_IN_STEP_TTL_MS,
    userVerification: 'required',
  });
  const { token } = await openStep(ctx.db, {
    kind: 'passkey-sign-in',
    now: ctx.now,
    challenge: options.challenge,
    next: input.next,
    anonymousKey: input.anonymousKey,
  });
  return { options, token };
}

/** The account whose passkey signed this challenge, or why not. */
export async function verifyPasskeySignIn(
  ctx: RequestContext,
  input: { token: string | null; response: AuthenticationResponseJSON; rp: RelyingParty },
): Promise<PasskeyOutcome<{ userId: number }>> {
  const step = await takeStep(ctx.db, input.token, 'passkey-sign-in', ctx.now);
  if (!step?.challenge) return { ok: false, reason: 'expired' };
  const [stored] = await ctx.db
    .select({ passkey: passkeys, isActive: users.isActive })
    .from(passkeys)
    .innerJoin(users, eq(users.id, passkeys.userId))
    .where(eq(passkeys.credentialId, input.response.id.slice(0, 1024)))
    .limit(1);
  if (!stored?.isActive) return { ok: false, reason: 'invalid' };
  const { passkey } = stored;
  let newCounter: number | null = null;
  try {
    const verified = await verifyAuthenticationResponse({
      response: input.response,
      expectedChallenge: step.challenge,
      expectedOrigin: input.rp.origin,
      expectedRPID: input.rp.id,
      requireUserVerification: true,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.signCount,
        transports: passkey.transports,
      },
    });
    if (verified.verified && verified.authenticationInfo.userVerified) {
      newCounter = verified.authenticationInfo.newCounter;
    }
  } catch {
    newCounter = null;
  }
  if (newCounter === null) return { ok: false, reason: 'invalid' };
  await ctx.db
    .update(passkeys)
    .set({ signCount: newCounter, lastUsedAt: ctx.now })
    .where(eq(passkeys.id, passkey.id));
  return { ok: true, value: { userId: passkey.userId } };
}

/** Removes one of the user's own passkeys; another user's id is not found. */
export async function removePasskey(
  ctx: RequestContext,
  input: { userId: number; passkeyId: number },
): Promise<void> {
  const removed = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, input.passkeyId), eq(passkeys.userId, input.userId)))
      .returning({ name: passkeys.name });
    if (row) {
      await queueSecurityNotice(tx, {
        userId: input.userId,
        event: 'passkey-removed',
        now: ctx.now,
        detail: row.name,
      });
    }
    return row;
  });
  if (!removed) throw new NotFound('security.passkey.error.notFound');
}
