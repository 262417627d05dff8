import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { type CacheItem, type Profile, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import type { Queryable } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import {
  campusIdentities,
  campusSignInRequests,
  campusSignIns,
  campusUsedAssertions,
} from '#db/schema/campus-sign-in.ts';
import { campusPeople } from '#db/schema/operations.ts';
import { organizations } from '#db/schema/sites.ts';
import { claimSectionInvitations } from '#domain/courses/section-invitations.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { NotFound, TooManyRequests } from '#domain/shared/errors.ts';
import { TimedCache } from '#domain/shared/timed-cache.ts';
import { queueAccountLink } from './account-links.ts';
import { DEFAULT_OIDC_SCOPES, storedCertificates } from './campus-settings.ts';
import {
  CAMPUS_REQUEST_TTL_MS,
  type CampusProfile,
  type CampusProtocol,
  campusForEmail,
  campusLinkDecision,
  campusStartThrottle,
  emailDomain,
  isAcceptableIssuer,
  isLoopbackIssuer,
  mapCampusProfile,
  SAML_CLOCK_SKEW_MS,
  type SamlRefusal,
  samlRefusalOf,
  usedIdExpiry,
} from './campus-sign-in.ts';
import { queueSecurityNotice } from './security-notice.ts';
import { forgetAccounts } from './service.ts';

// Campus single sign-on (issue 20, decision 023): OpenID Connect through openid-client
// (authorization code + PKCE, state and nonce, the ID token checked by the library) and SAML 2.0
// through node-saml (signed assertions, audience, NotBefore/NotOnOrAfter, InResponseTo against
// the stored request id, spent ids remembered until they expire).

export const OIDC_CALLBACK_PATH = '/accounts/campus/oidc/callback';
export const SAML_ACS_PATH = '/accounts/campus/saml/acs';

export type CampusChoice = { id: number; title: string; protocol: CampusProtocol };
export type CampusOffer = {
  /** The campuses chosen by e-mail domain (public: which domains sign in with their campus). */
  domains: { domain: string; campusId: number; title: string }[];
  /** On a white-label site of an organisation with campus sign-in: its button. */
  siteCampus: CampusChoice | null;
};

export type CampusFailure =
  | 'expired-request'
  | 'provider-refused'
  | 'missing-email'
  | 'account-not-verified'
  | 'account-inactive'
  | 'identity-linked-elsewhere'
  | SamlRefusal;

export type CampusOutcome =
  | { ok: true; userId: number; campusId: number; next: string; created: boolean }
  | { ok: false; reason: CampusFailure };

const campusColumns = {
  campus: campusSignIns,
  title: organizations.title,
};

type Campus = typeof campusSignIns.$inferSelect & { title: string };

async function loadCampuses(db: Queryable): Promise<Campus[]> {
  const rows = await db
    .select(campusColumns)
    .from(campusSignIns)
    .innerJoin(organizations, eq(organizations.id, campusSignIns.orgId));
  return rows.map((r) => ({ ...r.campus, title: r.title }));
}

async function loadCampus(db: Queryable, id: number): Promise<Campus | null> {
  const [row] = await db
    .select(campusColumns)
    .from(campusSignIns)
    .innerJoin(organizations, eq(organizations.id, campusSignIns.orgId))
    .where(eq(campusSignIns.id, id))
    .limit(1);
  return row ? { ...row.campus, title: row.title } : null;
}

/** What the login page offers: campus sign-in by e-mail domain, and the site's own campus. */
export async function campusOffer(ctx: RequestContext): Promise<CampusOffer> {
  const campuses = await loadCampuses(ctx.db);
  const siteOrg = ctx.site.whiteLabelId !== null ? (ctx.site.org?.id ?? null) : null;
  const site = siteOrg ? campuses.find((c) => c.orgId === siteOrg) : undefined;
  return {
    domains: campuses.flatMap((c) =>
      c.emailDomains.map((domain) => ({ domain, campusId: c.id, title: c.title })),
    ),
    siteCampus: site
      ? { id: site.id, title: site.title, protocol: site.protocol as CampusProtocol }
      : null,
  };
}

/** The campus an address signs in with, or null (issue 20: chosen by e-mail domain). */
export async function campusForAddress(
  ctx: RequestContext,
  email: string,
): Promise<CampusChoice | null> {
  const campus = campusForEmail(email, await loadCampuses(ctx.db));
  return campus
    ? { id: campus.id, title: campus.title, protocol: campus.protocol as CampusProtocol }
    : null;
}

/**
 * My Account's 'Link your campus account': the campus of the signed-in user's address, when
 * no identity of theirs is linked to it yet (the way to link after a refused first sign-in).
 */
export async function campusLinkOffer(ctx: RequestContext): Promise<CampusChoice | null> {
  if (!ctx.user) return null;
  const campus = await campusForAddress(ctx, ctx.user.email);
  if (!campus) return null;
  const [linked] = await ctx.db
    .select({ id: campusIdentities.id })
    .from(campusIdentities)
    .where(
      and(eq(campusIdentities.userId, ctx.user.id), eq(campusIdentities.campusSignInId, campus.id)),
    )
    .limit(1);
  return linked ? null : campus;
}

// ——— secrets at rest (decision 023) ———

function secretKey(ltiKey: string): Buffer {
  return createHash('sha256').update(`shelfmark-campus:client-secrets:${ltiKey}`).digest();
}

/** An OIDC client secret as stored: 'v1.' + base64url(iv ‖ tag ‖ ciphertext). */
export function encryptClientSecret(ltiKey: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secretKey(ltiKey), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

export function decryptClientSecret(ltiKey: string, ciphertext: string): string {
  if (!ciphertext.startsWith('v1.')) throw new Error('unknown secret format');
  const raw = Buffer.from(ciphertext.slice(3), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', secretKey(ltiKey), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/**
 * Stores (or clears, with null) an OIDC campus's client secret, encrypted (decision 023);
 * `scripts/campus-secret.ts` is how an operator sets it.
 */
export async function setCampusClientSecret(
  db: Queryable,
  ltiKey: string,
  campusId: number,
  secret: string | null,
): Promise<boolean> {
  const rows = await db
    .update(campusSignIns)
    .set({ oidcClientSecretCiphertext: secret ? encryptClientSecret(ltiKey, secret) : null })
    .where(and(eq(campusSignIns.id, campusId), eq(campusSignIns.protocol, 'oidc')))
    .returning({ id: campusSignIns.id });
  return rows.length === 1;
}

function digest(kind: string, handle: string): string {
  return createHash('sha256').update(`${kind}:${handle}`).digest('hex');
}

// ——— starting a sign-in ———

/** Where to send the browser to sign in at the campus (and the request kept for its answer). */
export async function startCampusSignIn(
  ctx: RequestContext,
  input: { campusId: number; next: string; origin: string; loginHint?: string | null },
): Promise<string> {
  const campus = await loadCampus(ctx.db, input.campusId);
  if (!campus) throw new NotFound('campus.error.unknownCampus');
  await ctx.db.delete(campusSignInRequests).where(lt(campusSignInRequests.expiresAt, ctx.now));
  const inFlight = await ctx.db
    .select({ expiresAt: campusSignInRequests.expiresAt })
    .from(campusSignInRequests)
    .where(eq(campusSignInRequests.ipAddress, ctx.ipAddress));
  const decision = campusStartThrottle(
    inFlight.map((r) => new Date(r.expiresAt.getTime() - CAMPUS_REQUEST_TTL_MS)),
    ctx.now,
  );
  if (!decision.allowed) {
    throw new TooManyRequests('campus.error.throttled', { minutes: decision.retryAfterMinutes });
  }
  const expiresAt = new Date(ctx.now.getTime() + CAMPUS_REQUEST_TTL_MS);
  if (campus.protocol === 'oidc') {
    const config = await oidcConfiguration(ctx, campus);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    await ctx.db.insert(campusSignInRequests).values({
      handleHash: digest('oidc', state),
      campusSignInId: campus.id,
      codeVerifier,
      nonce,
      nextPath: input.next,
      linkUserId: ctx.user?.id ?? null,
      ipAddress: ctx.ipAddress,
      expiresAt,
    });
    const params: Record<string, string> = {
      redirect_uri: `${input.origin}${OIDC_CALLBACK_PATH}`,
      // The campus's own scopes where its settings name them (issue 37: its campus id).
      scope: campus.oidcScopes ?? DEFAULT_OIDC_SCOPES.join(' '),
      response_type: 'code',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      // The campus's page in the visitor's language, where it can (OIDC Core 3.1.2.1).
      ui_locales: ctx.locale,
    };
    if (input.loginHint && emailDomain(input.loginHint)) params.login_hint = input.loginHint;
    return oidc.buildAuthorizationUrl(config, params).href;
  }
  const saml = samlFor(ctx, campus, input.origin, { next: input.next, expiresAt });
  return saml.getAuthorizeUrlAsync('', undefined, {});
}

// ——— OpenID Connect ———

// Discovery answers per issuer and client, kept a while (one fetch per sign-in is wasteful).
const configurations = new TimedCache<string, oidc.Configuration>(10 * 60_000, 100);

async function oidcConfiguration(ctx: RequestContext, campus: Campus): Promise<oidc.Configuration> {
  const issuer = campus.oidcIssuer ?? '';
  if (!isAcceptableIssuer(issuer)) throw new NotFound('campus.error.unknownCampus');
  const key = `${campus.id}:${issuer}:${campus.oidcClientId}:${campus.oidcClientSecretCiphertext ?? ''}`;
  const kept = configurations.get(key);
  if (kept) return kept;
  const secret = campus.oidcClientSecretCiphertext
    ? decryptClientSecret(ctx.keys.lti, campus.oidcClientSecretCiphertext)
    : null;
  const config = await oidc.discovery(
    new URL(issuer),
    campus.oidcClientId ?? '',
    undefined,
    secret ? oidc.ClientSecretBasic(secret) : oidc.None(),
    isLoopbackIssuer(issuer)
      ? { execute: [oidc.allowInsecureRequests], timeout: 10 }
      : { timeout: 10 },
  );
  configurations.set(key, config);
  return config;
}

/** Forgets discovery answers (tests start providers anew on the same address). */
export function forgetCampusConfigurations(): void {
  configurations.deleteWhere(() => true);
}

/** The provider's answer on our callback: code + state, checked by openid-client. */
export async function finishOidcSignIn(
  ctx: RequestContext,
  callbackUrl: URL,
): Promise<CampusOutcome> {
  const state = callbackUrl.searchParams.get('state') ?? '';
  const request = state ? await spendRequest(ctx, digest('oidc', state)) : null;
  if (!request) return { ok: false, reason: 'expired-request' };
  const campus = await loadCampus(ctx.db, request.campusSignInId);
  if (!campus || campus.protocol !== 'oidc') return { ok: false, reason: 'expired-request' };
  let claims: Record<string, unknown>;
  let subject: string;
  try {
    const config = await oidcConfiguration(ctx, campus);
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: request.codeVerifier ?? '',
      expectedState: state,
      expectedNonce: request.nonce ?? '',
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) return { ok: false, reason: 'provider-refused' };
    subject = idClaims.sub;
    claims = { ...idClaims };
    if (!claims[campus.emailAttribute] && tokens.access_token) {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, subject);
      claims = { ...info, ...idClaims, ...info };
    }
  } catch {
    return { ok: false, reason: 'provider-refused' };
  }
  const mapped = mapCampusProfile(subject, claims, campus);
  if (!mapped.ok) return { ok: false, reason: 'missing-email' };
  return signInCampusUser(ctx, campus, campus.oidcIssuer ?? '', mapped.profile, {
    next: request.nextPath,
    linkUserId: request.linkUserId,
    emailVouched: claims.email_verified !== false,
  });
}

async function spendRequest(ctx: RequestContext, handleHash: string) {
  const [row] = await ctx.db
    .delete(campusSignInRequests)
    .where(
      and(
        eq(campusSignInRequests.handleHash, handleHash),
        gt(campusSignInRequests.expiresAt, ctx.now),
        isNull(campusSignInRequests.userId),
      ),
    )
    .returning();
  return row ?? null;
}

// ——— SAML 2.0 ———

function samlFor(
  ctx: RequestContext,
  campus: Campus,
  origin: string,
  keep: { next: string; expiresAt: Date } | null,
  found?: { row: typeof campusSignInRequests.$inferSelect | null },
): SAML {
  // node-saml keeps the AuthnRequest ids here, so InResponseTo is checked against our table.
  const cacheProvider = {
    async saveAsync(key: string, value: string): Promise<CacheItem | null> {
      if (!keep) return null;
      await ctx.db.insert(campusSignInRequests).values({
        handleHash: digest('saml', key),
        campusSignInId: campus.id,
        nextPath: keep.next,
        linkUserId: ctx.user?.id ?? null,
        ipAddress: ctx.ipAddress,
        expiresAt: keep.expiresAt,
      });
      return { value, createdAt: ctx.now.getTime() };
    },
    async getAsync(key: string): Promise<string | null> {
      const [row] = await ctx.db
        .select()
        .from(campusSignInRequests)
        .where(
          and(
            eq(campusSignInRequests.handleHash, digest('saml', key)),
            eq(campusSignInRequests.campusSignInId, campus.id),
            gt(campusSignInRequests.expiresAt, ctx.now),
            isNull(campusSignInRequests.userId),
          ),
        )
        .limit(1);
      if (found) found.row = row ?? null;
      return row ? new Date(row.expiresAt.getTime() - CAMPUS_REQUEST_TTL_MS).toISOString() : null;
    },
    async removeAsync(key: string | null): Promise<string | null> {
      if (key) {
        await ctx.db
          .delete(campusSignInRequests)
          .where(eq(campusSignInRequests.handleHash, digest('saml', key)));
      }
      return key;
    },
  };
  return new SAML({
    entryPoint: campus.samlSsoUrl ?? '',
    issuer: campus.samlSpEntityId ?? '',
    audience: campus.samlSpEntityId ?? '',
    callbackUrl: `${origin}${SAML_ACS_PATH}`,
    // One certificate or several (a key rollover announced in the IdP's metadata).
    idpCert: storedCertificates(campus.samlSigningCert),
    idpIssuer: campus.samlIdpEntityId ?? undefined,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    maxAssertionAgeMs: CAMPUS_REQUEST_TTL_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: CAMPUS_REQUEST_TTL_MS,
    cacheProvider,
    disableRequestedAuthnContext: true,
    identifierFormat: null,
  });
}

/**
 * Our SAML service-provider metadata for one campus (decision 023 "Settings"): entity id, ACS
 * address and NameID format exactly as the SP built by `samlFor` uses them, written by
 * node-saml from that same object. Null for an unknown or OpenID Connect campus.
 */
export async function campusServiceProviderMetadata(
  ctx: RequestContext,
  campusId: number,
  origin: string,
): Promise<string | null> {
  const campus = await loadCampus(ctx.db, campusId);
  if (!campus || campus.protocol !== 'saml') return null;
  return samlFor(ctx, campus, origin, null).generateServiceProviderMetadata(null, null);
}

/** Response and assertion ids of a SAMLResponse as written (before any check: only to spot a replay). */
function samlIds(xml: string): string[] {
  const ids: string[] = [];
  const response = /<(?:\w+:)?Response\b[^>]*?\sID="([^"]{1,200})"/.exec(xml);
  const assertion = /<(?:\w+:)?Assertion\b[^>]*?\sID="([^"]{1,200})"/.exec(xml);
  if (response) ids.push(`response:${response[1]}`);
  if (assertion) ids.push(`assertion:${assertion[1]}`);
  return ids;
}

/** The IdP's POST to our assertion consumer service. */
export async function finishSamlSignIn(
  ctx: RequestContext,
  input: { samlResponse: string; origin: string },
): Promise<CampusOutcome> {
  const xml = Buffer.from(input.samlResponse, 'base64').toString('utf8');
  const ids = samlIds(xml);
  const issuer = /<(?:\w+:)?Issuer\b[^>]*>([^<]{1,500})</.exec(xml)?.[1]?.trim() ?? '';
  // The campus is the one whose IdP issued the response and whose request it answers.
  const inResponseTo = /<(?:\w+:)?Response\b[^>]*?\sInResponseTo="([^"]{1,200})"/.exec(xml)?.[1];
  if (ids.length > 0) {
    const hashes = ids.map((id) => digest('saml-used', id));
    const [spent] = await ctx.db
      .select({ idHash: campusUsedAssertions.idHash })
      .from(campusUsedAssertions)
      .where(
        and(
          sql`${campusUsedAssertions.idHash} in ${hashes}`,
          gt(campusUsedAssertions.expiresAt, ctx.now),
        ),
      )
      .limit(1);
    if (spent) return { ok: false, reason: 'replayed' };
  }
  if (!inResponseTo) return { ok: false, reason: 'unknown-request' };
  const [pending] = await ctx.db
    .select({ campusSignInId: campusSignInRequests.campusSignInId })
    .from(campusSignInRequests)
    .where(eq(campusSignInRequests.handleHash, digest('saml', inResponseTo)))
    .limit(1);
  if (!pending) return { ok: false, reason: 'unknown-request' };
  const campus = await loadCampus(ctx.db, pending.campusSignInId);
  if (!campus || campus.protocol !== 'saml') return { ok: false, reason: 'unknown-request' };
  const found: { row: typeof campusSignInRequests.$inferSelect | null } = { row: null };
  let profile: Profile | null;
  try {
    const saml = samlFor(ctx, campus, input.origin, null, found);
    ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: input.samlResponse }));
  } catch (error) {
    // The request is spent whatever the answer (node-saml removed it on failure).
    await ctx.db
      .delete(campusSignInRequests)
      .where(eq(campusSignInRequests.handleHash, digest('saml', inResponseTo)));
    return { ok: false, reason: samlRefusalOf(error instanceof Error ? error.message : '') };
  }
  await ctx.db
    .delete(campusSignInRequests)
    .where(eq(campusSignInRequests.handleHash, digest('saml', inResponseTo)));
  if (!profile || !found.row) return { ok: false, reason: 'invalid' };
  const conditions = (profile.getAssertion?.() as SamlAssertionDoc | undefined)?.Assertion
    ?.Conditions?.[0]?.$;
  const expiresAt = usedIdExpiry(conditions?.NotOnOrAfter, ctx.now);
  await ctx.db
    .insert(campusUsedAssertions)
    .values(ids.map((id) => ({ idHash: digest('saml-used', id), expiresAt })))
    .onConflictDoNothing();
  await ctx.db.delete(campusUsedAssertions).where(lt(campusUsedAssertions.expiresAt, ctx.now));
  const attributes: Record<string, unknown> = { ...(profile.attributes ?? {}) };
  if (profile.email && !attributes.email) attributes.email = profile.email;
  const mapped = mapCampusProfile(profile.nameID, attributes, campus);
  if (!mapped.ok) return { ok: false, reason: 'missing-email' };
  return signInCampusUser(
    ctx,
    campus,
    profile.issuer ?? (campus.samlIdpEntityId || issuer),
    mapped.profile,
    {
      next: found.row.nextPath,
      linkUserId: found.row.linkUserId,
      emailVouched: true,
    },
  );
}

type SamlAssertionDoc = { Assertion?: { Conditions?: { $?: { NotOnOrAfter?: string } }[] } };

// ——— the account ———

async function signInCampusUser(
  ctx: RequestContext,
  campus: Campus,
  issuer: string,
  profile: CampusProfile,
  options: { next: string; linkUserId: number | null; emailVouched: boolean },
): Promise<CampusOutcome> {
  // The campus vouches for an address of its own domains, unless it says it has not verified
  // it (OpenID's email_verified=false): never verified nor linked on such a claim (issue 37).
  const vouched = options.emailVouched && campusForEmail(profile.email, [campus]) !== null;
  return ctx.db.transaction(async (tx) => {
    const [linked] = await tx
      .select({ id: users.id, isActive: users.isActive })
      .from(campusIdentities)
      .innerJoin(users, eq(users.id, campusIdentities.userId))
      .where(
        and(eq(campusIdentities.issuer, issuer), eq(campusIdentities.subject, profile.subject)),
      )
      .limit(1);
    // Issue 39: the person the campus's roster already brought in (its user sourcedId or
    // identifier is what the campus says of them here) is who signs in; never a second account.
    const [rostered] =
      linked || options.linkUserId
        ? []
        : await tx
            .select({ id: users.id, isActive: users.isActive })
            .from(campusPeople)
            .innerJoin(users, eq(users.id, campusPeople.userId))
            .where(
              and(
                eq(campusPeople.orgId, campus.orgId),
                or(
                  eq(campusPeople.sourcedId, profile.subject),
                  profile.campusId ? eq(campusPeople.sourcedId, profile.campusId) : undefined,
                  profile.campusId ? eq(campusPeople.campusId, profile.campusId) : undefined,
                ),
              ),
            )
            .limit(1);
    const [holder] =
      linked || rostered
        ? []
        : await tx
            .select({
              id: users.id,
              isActive: users.isActive,
              emailVerifiedAt: users.emailVerifiedAt,
            })
            .from(users)
            .where(sql`lower(${users.email}) = ${profile.email}`)
            .limit(1);
    const decision = campusLinkDecision({
      currentUserId: options.linkUserId,
      linkedUser: linked ?? rostered ?? null,
      emailAccount: holder
        ? {
            id: holder.id,
            isActive: holder.isActive,
            emailVerified: holder.emailVerifiedAt !== null,
          }
        : null,
      emailInCampusDomains: vouched,
    });
    if (decision.kind === 'refuse') return { ok: false, reason: decision.reason } as const;
    let userId: number;
    let created = false;
    if (decision.kind === 'create') {
      const [row] = await tx
        .insert(users)
        .values({
          email: profile.email,
          firstName: profile.firstName,
          lastName: profile.lastName,
          orgId: campus.orgId,
          languageCode: ctx.locale,
          // An address the campus vouches for is verified (issue 20); one it says it has not
          // verified, or outside its domains, is proved by a mailed link first (issue 37).
          emailVerifiedAt: vouched ? ctx.now : null,
        })
        .returning({ id: users.id });
      userId = row!.id;
      created = true;
      if (vouched) {
        // The places a bookstore kept for the address are theirs now, as a mailed link would
        // have made them (issue 20).
        await claimSectionInvitations(tx, { userId, email: profile.email, now: ctx.now });
      } else {
        await queueAccountLink(tx, {
          userId,
          purpose: 'verify-email',
          email: profile.email,
          now: ctx.now,
          next: options.next,
        });
      }
    } else {
      userId = decision.userId;
    }
    if (decision.kind === 'sign-in' && profile.campusId) {
      // The campus id as the campus says it now (rosters and bursar billing match by it).
      await tx
        .update(campusIdentities)
        .set({ campusId: profile.campusId })
        .where(
          and(
            eq(campusIdentities.issuer, issuer),
            eq(campusIdentities.subject, profile.subject),
            sql`${campusIdentities.campusId} is distinct from ${profile.campusId}`,
          ),
        );
    }
    if (decision.kind !== 'sign-in' || (!linked && rostered)) {
      await tx.insert(campusIdentities).values({
        userId,
        campusSignInId: campus.id,
        issuer,
        subject: profile.subject,
        campusId: profile.campusId,
      });
    }
    if (decision.kind === 'link') {
      await queueSecurityNotice(tx, {
        userId,
        event: 'campus-linked',
        now: ctx.now,
        detail: campus.title,
      });
    }
    forgetAccounts([userId]);
    return { ok: true, userId, campusId: campus.id, next: options.next, created } as const;
  });
}

/**
 * A SAML sign-in accepted on the IdP's cross-site POST waits here for a same-site GET, which
 * carries our cookies (guest cart, previous session): a single-use handle, two minutes.
 */
export async function parkCampusSignIn(
  ctx: RequestContext,
  outcome: { userId: number; campusId: number; next: string },
): Promise<string> {
  const handle = randomBytes(32).toString('base64url');
  await ctx.db.insert(campusSignInRequests).values({
    handleHash: digest('done', handle),
    campusSignInId: outcome.campusId,
    userId: outcome.userId,
    nextPath: outcome.next,
    expiresAt: new Date(ctx.now.getTime() + 2 * 60_000),
  });
  return handle;
}

export async function pickUpCampusSignIn(
  ctx: RequestContext,
  handle: string,
): Promise<{ userId: number; next: string } | null> {
  if (!handle || handle.length > 100) return null;
  const [row] = await ctx.db
    .delete(campusSignInRequests)
    .where(
      and(
        eq(campusSignInRequests.handleHash, digest('done', handle)),
        gt(campusSignInRequests.expiresAt, ctx.now),
      ),
    )
    .returning();
  return row?.userId ? { userId: row.userId, next: row.nextPath } : null;
}
