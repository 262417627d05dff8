import { createHmac } from 'node:crypto';
import { and, asc, count, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import OAuth from 'oauth-1.0a';
import type { Queryable } from '#db/client.ts';
import { products } from '#db/schema/catalog.ts';
import { courseSections, courses, sectionMembers, sectionProducts } from '#db/schema/courses.ts';
import { ltiLaunches, ltiPlatformKeys, ltiTools } from '#db/schema/launch.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, NotFound } from '#domain/shared/errors.ts';
import {
  type AuthRequest,
  authRequestRefusal,
  basicLaunchParams,
  LAUNCH_HANDLE_SECONDS,
  type LaunchContext,
  type LaunchRefusal,
  type LaunchSubject,
  type Lti13Tool,
  type LtiVersion,
  loginInitiation,
  RETIRED_KEY_SECONDS,
  resourceLinkClaims,
  resourceLinkId,
  type SectionRole,
} from './courseware-launch.ts';
import { entitlementOf } from './entitlement-facts.ts';
import {
  decryptSecret,
  encryptSecret,
  handleDigest,
  newHandle,
  pairwiseSubject,
} from './lti-secrets.ts';

// The courseware launch service (issue 14, decision 017): the registry of tools, the
// platform's keys, and launches from request to outcome. Shelfmark is the LTI platform.

type ToolRow = typeof ltiTools.$inferSelect;

/** A form the browser posts (or gets) to a tool, as fields: the adapter renders it. */
export type LaunchForm = { action: string; method: 'post' | 'get'; fields: Record<string, string> };

/** A launch refused for a reason the user is told (the panel's footer, the launch page). */
export class LaunchRefused extends Forbidden {}

// ---------- the registry ----------

/** The tool of a courseware product: its own, else its publisher's; null when none. */
async function toolOfProduct(db: Queryable, productId: number): Promise<ToolRow | null> {
  const rows = await db
    .select({ tool: ltiTools })
    .from(products)
    .innerJoin(
      ltiTools,
      or(eq(ltiTools.productId, products.id), eq(ltiTools.publisher, products.publisher)),
    )
    .where(eq(products.id, productId))
    .orderBy(sql`${ltiTools.productId} is null`)
    .limit(1);
  return rows[0]?.tool ?? null;
}

export type ToolSummary = {
  id: number;
  name: string;
  productId: number | null;
  productTitle: string | null;
  publisher: string | null;
  ltiVersion: LtiVersion;
  launchUrl: string;
  clientId: string | null;
  deploymentId: string | null;
  loginUrl: string | null;
  redirectUris: string[];
  jwksUrl: string | null;
  consumerKey: string | null;
  /** Whether a 1.1 secret is stored; the secret itself is never read back. */
  hasSecret: boolean;
};

export async function listTools(db: Queryable): Promise<ToolSummary[]> {
  const rows = await db
    .select({ tool: ltiTools, productTitle: products.title })
    .from(ltiTools)
    .leftJoin(products, eq(products.id, ltiTools.productId))
    .orderBy(asc(ltiTools.id));
  return rows.map(({ tool, productTitle }) => ({
    id: tool.id,
    name: tool.name,
    productId: tool.productId,
    productTitle,
    publisher: tool.publisher,
    ltiVersion: tool.ltiVersion as LtiVersion,
    launchUrl: tool.launchUrl,
    clientId: tool.clientId,
    deploymentId: tool.deploymentId,
    loginUrl: tool.loginUrl,
    redirectUris: tool.redirectUris,
    jwksUrl: tool.jwksUrl,
    consumerKey: tool.consumerKey,
    hasSecret: tool.secretCiphertext !== null,
  }));
}

export type ToolInput = {
  id: number | null;
  name: string;
  productId: number | null;
  publisher: string | null;
  ltiVersion: LtiVersion;
  launchUrl: string;
  clientId: string | null;
  deploymentId: string | null;
  loginUrl: string | null;
  redirectUris: string[];
  jwksUrl: string | null;
  publicKey: string | null;
  consumerKey: string | null;
  /** A new 1.1 secret; null keeps the stored one (secrets are write-only). */
  secret: string | null;
};

/** Adds or changes a tool (managers, spec 1 §6); the secret is stored encrypted. */
export async function saveTool(
  db: Queryable,
  ltiKey: string,
  input: ToolInput,
  now: Date,
): Promise<number> {
  const values = {
    name: input.name,
    productId: input.productId,
    publisher: input.productId === null ? input.publisher : null,
    ltiVersion: input.ltiVersion,
    launchUrl: input.launchUrl,
    clientId: input.ltiVersion === '1.3' ? input.clientId : null,
    deploymentId: input.ltiVersion === '1.3' ? input.deploymentId : null,
    loginUrl: input.ltiVersion === '1.3' ? input.loginUrl : null,
    redirectUris: input.ltiVersion === '1.3' ? input.redirectUris : [],
    jwksUrl: input.ltiVersion === '1.3' ? input.jwksUrl : null,
    publicKey: input.ltiVersion === '1.3' ? input.publicKey : null,
    consumerKey: input.ltiVersion === '1.1' ? input.consumerKey : null,
    updatedAt: now,
    ...(input.secret ? { secretCiphertext: encryptSecret(ltiKey, input.secret) } : {}),
  };
  if (input.id === null) {
    const [row] = await db.insert(ltiTools).values(values).returning({ id: ltiTools.id });
    return row!.id;
  }
  const [row] = await db
    .update(ltiTools)
    .set(values)
    .where(eq(ltiTools.id, input.id))
    .returning({ id: ltiTools.id });
  if (!row) throw new NotFound();
  return row.id;
}

// ---------- the platform's keys ----------

/** The key that signs now, made on first use. */
async function signingKey(ctx: RequestContext): Promise<{ kid: string; key: CryptoKey }> {
  let [row] = await ctx.db
    .select()
    .from(ltiPlatformKeys)
    .where(isNull(ltiPlatformKeys.retiredAt))
    .limit(1);
  if (!row) {
    await insertKey(ctx);
    [row] = await ctx.db
      .select()
      .from(ltiPlatformKeys)
      .where(isNull(ltiPlatformKeys.retiredAt))
      .limit(1);
  }
  const jwk = JSON.parse(decryptSecret(ctx.keys.lti, row!.privateKeyCiphertext)) as JWK;
  return { kid: row!.kid, key: (await importJWK(jwk, 'RS256')) as CryptoKey };
}

async function insertKey(ctx: RequestContext): Promise<string> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = newHandle().slice(0, 22);
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const privateJwk = await exportJWK(privateKey);
  // Two first launches at once: one key wins (one active key, migration 0013).
  await ctx.db
    .insert(ltiPlatformKeys)
    .values({
      kid,
      publicJwk,
      privateKeyCiphertext: encryptSecret(ctx.keys.lti, JSON.stringify(privateJwk)),
      createdAt: ctx.now,
    })
    .onConflictDoNothing();
  return kid;
}

/**
 * A new signing key; the old one stops signing but stays in the JWKS until the tokens it
 * signed have expired (RETIRED_KEY_SECONDS), so launches in flight still verify.
 */
export async function rotateSigningKey(ctx: RequestContext): Promise<string> {
  await ctx.db
    .update(ltiPlatformKeys)
    .set({ retiredAt: ctx.now })
    .where(isNull(ltiPlatformKeys.retiredAt));
  return insertKey(ctx);
}

/** The public JWKS (RFC 7517): the signing key and recently retired ones. */
export async function platformJwks(ctx: RequestContext): Promise<{ keys: JWK[] }> {
  await signingKey(ctx);
  const since = new Date(ctx.now.getTime() - RETIRED_KEY_SECONDS * 1000);
  const rows = await ctx.db
    .select({ jwk: ltiPlatformKeys.publicJwk })
    .from(ltiPlatformKeys)
    .where(or(isNull(ltiPlatformKeys.retiredAt), gt(ltiPlatformKeys.retiredAt, since)))
    .orderBy(desc(ltiPlatformKeys.createdAt));
  return { keys: rows.map((r) => r.jwk as JWK) };
}

// ---------- launches ----------

type Facts = {
  tool: ToolRow;
  product: { id: number; title: string };
  section: {
    id: number;
    rsCourseId: string;
    label: string;
    title: string;
    sectionProductId: number;
    role: SectionRole;
  } | null;
};

/** Loads what a launch needs and applies the launch rule; throws the reason when refused. */
async function launchFacts(
  ctx: RequestContext,
  productId: number,
  sectionId: number | null,
  version: LtiVersion | null,
): Promise<Facts> {
  const user = ctx.user;
  if (!user) throw new Forbidden();
  const [product] = await ctx.db
    .select({ id: products.id, title: products.title, type: products.productType })
    .from(products)
    .where(eq(products.id, productId));
  if (!product || product.type !== 'courseware') throw new NotFound();
  let section: Facts['section'] = null;
  if (sectionId !== null) {
    const [row] = await ctx.db
      .select({
        id: courseSections.id,
        rsCourseId: courseSections.rsCourseId,
        number: courseSections.number,
        department: courses.department,
        courseNumber: courses.number,
        courseName: courses.name,
        role: sectionMembers.role,
        sectionProductId: sectionProducts.id,
      })
      .from(courseSections)
      .innerJoin(courses, eq(courses.id, courseSections.courseId))
      .innerJoin(
        sectionMembers,
        and(eq(sectionMembers.sectionId, courseSections.id), eq(sectionMembers.userId, user.id)),
      )
      .innerJoin(
        sectionProducts,
        and(
          eq(sectionProducts.sectionId, courseSections.id),
          eq(sectionProducts.productId, productId),
        ),
      )
      .where(eq(courseSections.id, sectionId));
    // Not a member, or the section does not use this courseware: no such launch.
    if (!row) throw new LaunchRefused('launch.error.notEntitled');
    section = {
      id: row.id,
      rsCourseId: row.rsCourseId,
      label: [row.department, row.courseNumber, row.number].filter(Boolean).join(' '),
      title: row.courseName,
      sectionProductId: row.sectionProductId,
      role: row.role as SectionRole,
    };
  }
  // The one entitlement rule decides who launches (issue 14): an owner, a course-fee member
  // (the CDS link at a CDS organisation), courtesy access, the section's instructors.
  const { decision } = await entitlementOf(ctx, productId, { sectionId });
  if (!decision.ok && decision.reason !== 'access.reason.notEntitled') {
    // The rule's own reason (opted out: until when to opt back in; the term ended...).
    throw new LaunchRefused(decision.reason, {
      ...decision.params,
      wayBack: decision.wayBack?.kind ?? '',
      ...(decision.wayBack?.kind === 'optBackIn' ? { sectionId: decision.wayBack.sectionId } : {}),
    });
  }
  const refusal: LaunchRefusal | null =
    decision.ok && decision.entry === 'launch' ? null : 'launch.error.notEntitled';
  const tool = await toolOfProduct(ctx.db, productId);
  if (refusal) throw new LaunchRefused(refusal);
  if (!tool || (version !== null && tool.ltiVersion !== version)) {
    throw new LaunchRefused('launch.error.noTool');
  }
  return { tool, product: { id: product.id, title: product.title }, section };
}

function subjectOf(ctx: RequestContext, toolId: number): LaunchSubject {
  const user = ctx.user!;
  return {
    sub: pairwiseSubject(ctx.keys.lti, toolId, user.id),
    name: `${user.firstName} ${user.lastName}`.trim(),
    givenName: user.firstName,
    familyName: user.lastName,
    email: user.email,
    locale: ctx.locale,
  };
}

function contextOf(facts: Facts, origin: string, launchId: string): LaunchContext {
  return {
    section: facts.section
      ? { id: facts.section.rsCourseId, label: facts.section.label, title: facts.section.title }
      : null,
    role: facts.section?.role ?? null,
    resourceLink: {
      id: resourceLinkId({
        sectionProductId: facts.section?.sectionProductId ?? null,
        productId: facts.product.id,
      }),
      title: facts.product.title,
    },
    returnUrl: `${origin}/lti/return/?launch=${launchId}`,
  };
}

async function openLaunch(ctx: RequestContext, facts: Facts, handle: string): Promise<string> {
  const [row] = await ctx.db
    .insert(ltiLaunches)
    .values({
      userId: ctx.user!.id,
      productId: facts.product.id,
      sectionId: facts.section?.id ?? null,
      toolId: facts.tool.id,
      ltiVersion: facts.tool.ltiVersion,
      handleDigest: handleDigest(handle),
      createdAt: ctx.now,
      expiresAt: new Date(ctx.now.getTime() + LAUNCH_HANDLE_SECONDS * 1000),
    })
    .returning({ id: ltiLaunches.id });
  return row!.id;
}

/** A refused launch is recorded too (who, what, section, when, why). */
async function recordRefusal(
  ctx: RequestContext,
  input: { productId: number; sectionId: number | null; version: LtiVersion; reason: string },
): Promise<void> {
  if (!ctx.user) return;
  const [product] = await ctx.db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.id, input.productId));
  if (!product) return;
  const [section] =
    input.sectionId === null
      ? []
      : await ctx.db
          .select({ id: courseSections.id })
          .from(courseSections)
          .where(eq(courseSections.id, input.sectionId));
  await ctx.db.insert(ltiLaunches).values({
    userId: ctx.user.id,
    productId: input.productId,
    sectionId: section?.id ?? null,
    ltiVersion: input.version,
    outcome: 'refused',
    reason: input.reason,
    createdAt: ctx.now,
    expiresAt: ctx.now,
    completedAt: ctx.now,
  });
}

async function refusing<T>(
  ctx: RequestContext,
  input: { productId: number; sectionId: number | null; version: LtiVersion },
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof LaunchRefused) {
      await recordRefusal(ctx, { ...input, reason: error.messageKey });
    }
    throw error;
  }
}

/** What the shelf offers for a courseware: its tool's LTI version, or null (no tool). */
export async function launchVersion(db: Queryable, productId: number): Promise<LtiVersion | null> {
  const tool = await toolOfProduct(db, productId);
  return (tool?.ltiVersion as LtiVersion | undefined) ?? null;
}

/**
 * Link 2.0, first step (spec 2 §7 "Courseware launch 2.0"): the OIDC third-party login
 * initiation form to the tool. The launch is recorded as pending; its message hint is
 * single-use and short-lived.
 */
export async function startLti13Launch(
  ctx: RequestContext,
  input: { productId: number; sectionId: number | null; issuer: string; origin: string },
): Promise<LaunchForm & { launchId: string }> {
  return refusing(ctx, { ...input, version: '1.3' }, async () => {
    const facts = await launchFacts(ctx, input.productId, input.sectionId, '1.3');
    const handle = newHandle();
    const launchId = await openLaunch(ctx, facts, handle);
    const tool = lti13Tool(facts.tool, input.origin);
    return {
      launchId,
      action: tool.loginUrl,
      method: 'post',
      fields: loginInitiation({
        issuer: input.issuer,
        tool,
        loginHint: pairwiseSubject(ctx.keys.lti, facts.tool.id, ctx.user!.id),
        messageHint: handle,
      }),
    };
  });
}

/**
 * A registered address; a path (a tool that ships with the project, like the demo tool) is on
 * our own origin.
 */
export function resolveToolUrl(url: string, origin: string): string {
  return url.startsWith('/') ? `${origin}${url}` : url;
}

function lti13Tool(tool: ToolRow, origin: string): Lti13Tool {
  return {
    clientId: tool.clientId ?? '',
    deploymentId: tool.deploymentId ?? '',
    launchUrl: resolveToolUrl(tool.launchUrl, origin),
    loginUrl: resolveToolUrl(tool.loginUrl ?? '', origin),
    redirectUris: tool.redirectUris.map((uri) => resolveToolUrl(uri, origin)),
  };
}

/**
 * Link 2.0, the tool's authentication request back to us (`/lti1p3/link/launch/`): checked
 * against the launch in flight (registered client and redirect URI, login hint, nonce, state,
 * the OIDC constants), then answered with the id_token (RS256, `kid` in the header) and the
 * state, posted to the redirect URI. The message hint is spent: a replay is refused.
 */
export async function answerAuthRequest(
  ctx: RequestContext,
  request: AuthRequest,
  input: { issuer: string; origin: string },
): Promise<{ redirectUri: string; idToken: string; state: string; launchId: string }> {
  if (!ctx.user) throw new Forbidden();
  const [tool] = request.client_id
    ? await ctx.db.select().from(ltiTools).where(eq(ltiTools.clientId, request.client_id))
    : [];
  const [launch] = request.lti_message_hint
    ? await ctx.db
        .select()
        .from(ltiLaunches)
        .where(eq(ltiLaunches.handleDigest, handleDigest(request.lti_message_hint)))
    : [];
  const fail = async (reason: LaunchRefusal): Promise<never> => {
    if (launch && launch.outcome === 'pending' && launch.userId === ctx.user!.id) {
      await finish(ctx, launch.id, 'refused', reason);
    }
    throw new LaunchRefused(reason);
  };
  const refusal = authRequestRefusal(request, {
    tool: tool ? lti13Tool(tool, input.origin) : null,
    loginHint: tool ? pairwiseSubject(ctx.keys.lti, tool.id, ctx.user.id) : '',
  });
  if (refusal) return fail(refusal);
  if (!launch || launch.toolId !== tool!.id) return fail('launch.error.invalidRequest');
  if (launch.userId !== ctx.user.id) return fail('launch.error.otherUser');
  if (launch.outcome !== 'pending' || launch.expiresAt <= ctx.now) {
    return fail('launch.error.expired');
  }
  // Spend the hint first: of two requests with it, one goes on.
  const spent = await ctx.db
    .update(ltiLaunches)
    .set({ outcome: 'launched', completedAt: ctx.now })
    .where(and(eq(ltiLaunches.id, launch.id), eq(ltiLaunches.outcome, 'pending')))
    .returning({ id: ltiLaunches.id });
  if (spent.length === 0) return fail('launch.error.expired');
  const facts = await launchFacts(ctx, launch.productId, launch.sectionId, '1.3');
  const claims = resourceLinkClaims({
    issuer: input.issuer,
    tool: lti13Tool(tool!, input.origin),
    subject: subjectOf(ctx, tool!.id),
    context: contextOf(facts, input.origin, launch.id),
    nonce: request.nonce!,
    now: ctx.now,
  });
  const { kid, key } = await signingKey(ctx);
  const idToken = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
    .sign(key);
  return {
    redirectUri: request.redirect_uri!,
    idToken,
    state: request.state!,
    launchId: launch.id,
  };
}

async function finish(
  ctx: RequestContext,
  launchId: string,
  outcome: 'launched' | 'refused',
  reason: string | null,
): Promise<void> {
  await ctx.db
    .update(ltiLaunches)
    .set({ outcome, reason, completedAt: ctx.now })
    .where(eq(ltiLaunches.id, launchId));
}

/**
 * Link 1.0 authorize (spec 2 §7 "Launch 1.0 authorize"): the tool's launch URL as target_url
 * and a single-use, short-lived cache_key for `/lti1p0/link/launch/`.
 */
export async function authorizeLti11Launch(
  ctx: RequestContext,
  input: { productId: number; sectionId: number | null; origin: string },
): Promise<{ targetUrl: string; cacheKey: string }> {
  return refusing(ctx, { ...input, version: '1.1' }, async () => {
    const facts = await launchFacts(ctx, input.productId, input.sectionId, '1.1');
    const cacheKey = newHandle();
    await openLaunch(ctx, facts, cacheKey);
    return { targetUrl: resolveToolUrl(facts.tool.launchUrl, input.origin), cacheKey };
  });
}

/** The product of a section's courseware pricing id (spec 2 §7 courseware_pricing_id). */
export async function productOfPricingId(
  db: Queryable,
  pricingId: string,
  sectionId: number | null,
): Promise<number | null> {
  const rows = await db
    .select({ productId: sectionProducts.productId })
    .from(sectionProducts)
    .where(
      and(
        eq(sectionProducts.coursewarePricingId, pricingId),
        sectionId === null ? undefined : eq(sectionProducts.sectionId, sectionId),
      ),
    )
    .limit(1);
  return rows[0]?.productId ?? null;
}

/**
 * Link 1.0 launch (`/lti1p0/link/launch/?target_url=…&cache_key=…`): spends the cache key and
 * answers the basic launch form, signed with OAuth 1.0a HMAC-SHA1 over its exact parameters
 * (with nonce and timestamp), to post to the tool.
 */
export async function lti11LaunchForm(
  ctx: RequestContext,
  input: { targetUrl: string; cacheKey: string; origin: string; consumerGuid: string },
): Promise<LaunchForm> {
  if (!ctx.user) throw new Forbidden();
  const [launch] = await ctx.db
    .select()
    .from(ltiLaunches)
    .where(eq(ltiLaunches.handleDigest, handleDigest(input.cacheKey)));
  if (!launch || launch.userId !== ctx.user.id || launch.ltiVersion !== '1.1') {
    throw new LaunchRefused('launch.error.expired');
  }
  if (launch.outcome !== 'pending' || launch.expiresAt <= ctx.now) {
    throw new LaunchRefused('launch.error.expired');
  }
  const facts = await launchFacts(ctx, launch.productId, launch.sectionId, '1.1');
  const launchUrl = resolveToolUrl(facts.tool.launchUrl, input.origin);
  if (launchUrl !== input.targetUrl || facts.tool.id !== launch.toolId) {
    await finish(ctx, launch.id, 'refused', 'launch.error.invalidRequest');
    throw new LaunchRefused('launch.error.invalidRequest');
  }
  const spent = await ctx.db
    .update(ltiLaunches)
    .set({ outcome: 'launched', completedAt: ctx.now })
    .where(and(eq(ltiLaunches.id, launch.id), eq(ltiLaunches.outcome, 'pending')))
    .returning({ id: ltiLaunches.id });
  if (spent.length === 0) throw new LaunchRefused('launch.error.expired');
  const params = basicLaunchParams({
    subject: subjectOf(ctx, facts.tool.id),
    context: contextOf(facts, input.origin, launch.id),
    consumerGuid: input.consumerGuid,
  });
  const secret = decryptSecret(ctx.keys.lti, facts.tool.secretCiphertext ?? '');
  return {
    action: launchUrl,
    method: 'post',
    fields: signOAuth1(launchUrl, params, facts.tool.consumerKey ?? '', secret, ctx.now),
  };
}

/** OAuth 1.0a HMAC-SHA1 over the exact POST parameters (RFC 5849 §3.4). */
export function signOAuth1(
  url: string,
  params: Record<string, string>,
  consumerKey: string,
  secret: string,
  now: Date,
): Record<string, string> {
  const oauth = new OAuth({
    consumer: { key: consumerKey, secret },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
  oauth.getTimeStamp = () => Math.floor(now.getTime() / 1000);
  const signed = oauth.authorize({
    url,
    method: 'POST',
    data: { ...params, oauth_callback: 'about:blank' },
  });
  return { ...params, oauth_callback: 'about:blank', ...stringify(signed) };
}

function stringify(values: object): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
}

/**
 * The tool sends the user back (launch_presentation return_url) with lti_errormsg or lti_msg;
 * an error marks the launch refused by the tool, so the section's analytics count it so.
 */
export async function toolReturn(
  ctx: RequestContext,
  input: { launchId: string; errorMessage: string | null },
): Promise<{ productId: number; sectionId: number | null } | null> {
  if (!ctx.user || !/^[0-9a-f-]{36}$/i.test(input.launchId)) return null;
  const [launch] = await ctx.db
    .select()
    .from(ltiLaunches)
    .where(and(eq(ltiLaunches.id, input.launchId), eq(ltiLaunches.userId, ctx.user.id)));
  if (!launch) return null;
  if (input.errorMessage) {
    await finish(ctx, launch.id, 'refused', `tool: ${input.errorMessage.slice(0, 500)}`);
  }
  return { productId: launch.productId, sectionId: launch.sectionId };
}

/** Launches of a section's courseware by outcome (issue 14: counted in section analytics). */
export async function sectionLaunchCounts(
  db: Queryable,
  sectionIds: number[],
): Promise<{ launched: number; refused: number }> {
  if (sectionIds.length === 0) return { launched: 0, refused: 0 };
  const rows = await db
    .select({ outcome: ltiLaunches.outcome, n: count() })
    .from(ltiLaunches)
    .where(sql`${ltiLaunches.sectionId} in ${sectionIds}`)
    .groupBy(ltiLaunches.outcome);
  const of = (outcome: string) => rows.find((r) => r.outcome === outcome)?.n ?? 0;
  return { launched: of('launched'), refused: of('refused') };
}

export type LaunchOption = {
  version: LtiVersion;
  /** The user's section that uses this courseware, if any: the launch's context. */
  sectionId: number | null;
  coursewarePricingId: string | null;
  /** Where the launch's first form goes: a page offering it must allow it (CSP form-action). */
  formOrigin: string;
};

/**
 * What 'Access Courseware' launches for this user (issue 14): the tool's version and the
 * user's section using this courseware; null when no tool is registered for it.
 */
export async function coursewareLaunchOption(
  ctx: RequestContext,
  productId: number,
  origin: string,
): Promise<LaunchOption | null> {
  const tool = await toolOfProduct(ctx.db, productId);
  if (!tool || !ctx.user) return null;
  const [section] = await ctx.db
    .select({ id: sectionProducts.sectionId, pricingId: sectionProducts.coursewarePricingId })
    .from(sectionProducts)
    .innerJoin(
      sectionMembers,
      and(
        eq(sectionMembers.sectionId, sectionProducts.sectionId),
        eq(sectionMembers.userId, ctx.user.id),
      ),
    )
    .where(eq(sectionProducts.productId, productId))
    .orderBy(desc(sectionProducts.sectionId))
    .limit(1);
  const first = tool.ltiVersion === '1.3' ? (tool.loginUrl ?? '') : tool.launchUrl;
  return {
    version: tool.ltiVersion as LtiVersion,
    sectionId: section?.id ?? null,
    coursewarePricingId: section?.pricingId ?? null,
    formOrigin: new URL(resolveToolUrl(first, origin)).origin,
  };
}

/** The section of one of the user's course memberships (a CDS launch names the member). */
export async function sectionOfMember(
  ctx: RequestContext,
  memberId: number,
): Promise<number | null> {
  if (!ctx.user) return null;
  const [row] = await ctx.db
    .select({ sectionId: sectionMembers.sectionId })
    .from(sectionMembers)
    .where(and(eq(sectionMembers.id, memberId), eq(sectionMembers.userId, ctx.user.id)));
  return row?.sectionId ?? null;
}
