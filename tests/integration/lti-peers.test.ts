import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import imsLti from 'ims-lti';
import ltijs from 'ltijs';
import LtijsSequelize from 'ltijs-sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { courseSections, courses, sectionMembers, sectionProducts } from '#db/schema/courses.ts';
import { ltiLaunches } from '#db/schema/launch.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { organizations } from '#db/schema/sites.ts';
import type { AuthRequest } from '#domain/access/courseware-launch.ts';
import {
  answerAuthRequest,
  authorizeLti11Launch,
  LaunchRefused,
  lti11LaunchForm,
  platformJwks,
  rotateSigningKey,
  saveTool,
  sectionLaunchCounts,
  startLti13Launch,
} from '#domain/access/launch-service.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import { sectionLaunches } from '#domain/analytics/service.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { translate } from '#i18n/translate.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, unique } from '#tests/database.ts';

// Issue 14 "Proven against real peers": Shelfmark as the LTI 1.3 platform launches into a tool
// built on ltijs (a maintained LTI 1.3 tool library, here on its Sequelize store over SQLite in
// memory instead of MongoDB), which accepts a launch only through the full login-initiation
// flow; and as the LTI 1.1 consumer into ims-lti's provider, which checks the OAuth 1.0a
// signature with its own code. Both on 127.0.0.1. The platform's HTTP side here is a thin
// stand-in for web/launch/ that calls the same services (the browser journey drives the real
// routes, tests/e2e/courseware-launch.test.ts).

const lti = ltijs.Provider;
let database: DatabaseHandle;
let platform: Server;
let tool11: Server;
let issuer = '';
let toolUrl = '';
let tool11Url = '';
const received11: Record<string, string>[] = [];
const CLIENT_ID = 'ltijs-peer-client';
const SECRET11 = 'peer-1.1-secret-of-the-tool';
const KEY11 = 'peer-1.1-key';

/** Who the platform stand-in's requests come from (the browser's session). */
let current: RequestContext;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => resolve(text));
  });
}

beforeAll(async () => {
  database = await openTestDatabase();
  // The platform: JWKS and the authentication endpoint, as web/launch/ serves them.
  platform = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/jwks') {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(await platformJwks(current)));
      return;
    }
    if (url.pathname === '/auth') {
      try {
        const answered = await answerAuthRequest(
          current,
          Object.fromEntries(url.searchParams) as AuthRequest,
          { issuer, origin: issuer },
        );
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify(answered));
      } catch (error) {
        const key = error instanceof LaunchRefused ? error.messageKey : 'launch.error.generic';
        res.statusCode = 403;
        res.end(JSON.stringify({ error: translate('en', key), key }));
      }
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  issuer = await listen(platform);

  // The LTI 1.3 tool: ltijs with its own store.
  const store = new LtijsSequelize('ltijs', 'ltijs', 'ltijs', {
    dialect: 'sqlite',
    storage: ':memory:',
    logging: false,
  });
  lti.setup(
    'peer-tool-encryption-key',
    { plugin: store },
    {
      appRoute: '/',
      loginRoute: '/login',
      keysetRoute: '/keys',
      cookies: { secure: false, sameSite: 'Lax' },
      devMode: false,
    },
  );
  lti.onConnect(
    (token: Record<string, unknown>, _req: unknown, res: { json: (v: unknown) => void }) => {
      res.json({
        token,
        context: (res as unknown as { locals: { context: unknown } }).locals.context,
      });
    },
  );
  lti.onInvalidToken(
    (
      _req: unknown,
      res: { status: (n: number) => { json: (v: unknown) => void }; locals: { err: unknown } },
    ) => {
      res.status(401).json({ refused: res.locals.err });
    },
  );
  await lti.deploy({ port: 0, silent: true, serverless: true });
  const toolServer = createServer(lti.app);
  toolUrl = await listen(toolServer);
  await lti.registerPlatform({
    url: issuer,
    name: 'Shelfmark',
    clientId: CLIENT_ID,
    authenticationEndpoint: `${issuer}/auth`,
    accesstokenEndpoint: `${issuer}/token`,
    authConfig: { method: 'JWK_SET', key: `${issuer}/jwks` },
  });

  // The LTI 1.1 tool: ims-lti's provider checks each launch (signature, timestamp, nonce; its
  // nonce store remembers every launch it has seen).
  const provider = new imsLti.Provider(KEY11, SECRET11);
  tool11 = createServer(async (req, res) => {
    const text = await body(req);
    const fields = Object.fromEntries(new URLSearchParams(text));
    (req as IncomingMessage & { body: unknown }).body = fields;
    provider.valid_request(req, fields, (error: Error | null, valid: boolean) => {
      if (valid && !error) received11.push(fields);
      res.statusCode = valid && !error ? 200 : 401;
      res.end(valid && !error ? 'ok' : `refused: ${error?.message}`);
    });
  });
  tool11Url = await listen(tool11);
}, 60_000);

afterAll(async () => {
  await lti.close?.({ silent: true }).catch(() => {});
  platform?.close();
  tool11?.close();
  await database?.close();
});

/** A cookie jar of one browser. */
class Browser {
  private jar = new Map<string, string>();
  private keep(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  }
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers ?? {}), ...(cookie ? { cookie } : {}) },
    });
    this.keep(response);
    return response;
  }
  post(url: string, fields: Record<string, string>) {
    return this.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

const DAY = 86_400_000;

async function person(name: string, now = new Date()): Promise<RequestContext> {
  const [row] = await database.db
    .insert(users)
    .values({ email: `${unique(name)}@example.test`, firstName: name, lastName: 'Peer' })
    .returning({ id: users.id });
  const user = (await loadSessionUser(database.db, { userId: row!.id, impersonatorId: null }))!;
  return testContext(database.db, { user, now });
}

/** A section using two courseware products: one launched over 1.3 (ltijs), one over 1.1. */
async function setting() {
  const now = new Date();
  const [org] = await database.db
    .insert(organizations)
    .values({ title: unique('Org') })
    .returning({ id: organizations.id });
  const [course] = await database.db
    .insert(courses)
    .values({ orgId: org!.id, name: 'General Biology', department: 'BIO', number: '101' })
    .returning({ id: courses.id });
  const rsCourseId = unique('RSC');
  const [section] = await database.db
    .insert(courseSections)
    .values({
      courseId: course!.id,
      name: 'General Biology',
      number: '001',
      rsCourseId,
      startDate: '2026-01-05',
      endDate: '2026-12-15',
      addDropAt: new Date(now.getTime() - 30 * DAY),
      timeZone: 'UTC',
    })
    .returning({ id: courseSections.id });
  const product13 = await insertProduct(database.db, {
    productType: 'courseware',
    title: unique('Lab Courseware'),
  });
  const product11 = await insertProduct(database.db, {
    productType: 'courseware',
    title: unique('Quiz Courseware'),
  });
  await database.db.insert(sectionProducts).values([
    { sectionId: section!.id, productId: product13, position: 0 },
    { sectionId: section!.id, productId: product11, position: 1 },
  ]);
  await saveTool(
    database.db,
    'test-lti-key',
    {
      id: null,
      name: 'ltijs peer',
      productId: product13,
      publisher: null,
      ltiVersion: '1.3',
      launchUrl: `${toolUrl}/`,
      clientId: unique(CLIENT_ID),
      deploymentId: 'peer-deployment',
      loginUrl: `${toolUrl}/login`,
      redirectUris: [`${toolUrl}/`],
      jwksUrl: `${toolUrl}/keys`,
      publicKey: null,
      consumerKey: null,
      secret: null,
    },
    now,
  );
  await saveTool(
    database.db,
    'test-lti-key',
    {
      id: null,
      name: 'ims-lti peer',
      productId: product11,
      publisher: null,
      ltiVersion: '1.1',
      launchUrl: `${tool11Url}/launch`,
      clientId: null,
      deploymentId: null,
      loginUrl: null,
      redirectUris: [],
      jwksUrl: null,
      publicKey: null,
      consumerKey: KEY11,
      secret: SECRET11,
    },
    now,
  );
  return { sectionId: section!.id, rsCourseId, product13, product11 };
}

async function join(ctx: RequestContext, sectionId: number, role: string, courseFee = false) {
  await database.db.insert(sectionMembers).values({
    sectionId,
    userId: ctx.user!.id,
    role,
    isCourseFee: courseFee,
    addDropDate: new Date(ctx.now.getTime() - DAY),
    rsCoursememberId: unique('RSM'),
  });
}

async function clientIdOf(productId: number): Promise<string> {
  const { ltiTools } = await import('#db/schema/launch.ts');
  const [row] = await database.db
    .select({ clientId: ltiTools.clientId })
    .from(ltiTools)
    .where(eq(ltiTools.productId, productId));
  return row!.clientId!;
}

/**
 * The browser's side of a 1.3 launch: the login-initiation form to the tool, the tool's
 * redirect to our authentication endpoint, the id_token posted back, ltijs's redirect to its app.
 */
async function launch13(ctx: RequestContext, productId: number, sectionId: number | null) {
  current = ctx;
  const browser = new Browser();
  const form = await startLti13Launch(ctx, { productId, sectionId, issuer, origin: issuer });
  const login = await browser.post(form.action, form.fields);
  expect(login.status).toBe(302);
  const auth = await browser.fetch(login.headers.get('location')!);
  const answer = await auth.json();
  return { browser, form, auth, answer };
}

async function registerClient(clientId: string) {
  await lti.registerPlatform({
    url: issuer,
    name: 'Shelfmark',
    clientId,
    authenticationEndpoint: `${issuer}/auth`,
    accesstokenEndpoint: `${issuer}/token`,
    authConfig: { method: 'JWK_SET', key: `${issuer}/jwks` },
  });
}

describe('LTI 1.3 into ltijs (Link 2.0, spec 2 §4)', () => {
  it('the student and the professor arrive as themselves, with their role, course section and resource link', async () => {
    const s = await setting();
    await registerClient(await clientIdOf(s.product13));
    const student = await person('Stu');
    await join(student, s.sectionId, 'student', true);
    const professor = await person('Prof');
    await join(professor, s.sectionId, 'professor');

    for (const [ctx, role] of [
      [student, 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner'],
      [professor, 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor'],
    ] as const) {
      const { browser, answer } = await launch13(ctx, s.product13, s.sectionId);
      expect(answer.redirectUri).toBe(`${toolUrl}/`);
      const posted = await browser.post(answer.redirectUri, {
        id_token: answer.idToken,
        state: answer.state,
      });
      expect(posted.status).toBe(302);
      const app = await browser.fetch(new URL(posted.headers.get('location')!, toolUrl).toString());
      expect(app.status).toBe(200);
      const { token, context } = await app.json();
      expect(token.userInfo).toMatchObject({
        name: `${ctx.user!.firstName} ${ctx.user!.lastName}`,
        email: ctx.user!.email,
      });
      expect(token.user).not.toBe(String(ctx.user!.id));
      expect(context.roles).toEqual([role]);
      expect(context.context).toMatchObject({ id: s.rsCourseId, title: 'General Biology' });
      expect(context.context.label).toBe('BIO 101 001');
      expect(context.resource.id).toMatch(/^shelfmark-sp-\d+$/);
      expect(context.messageType).toBe('LtiResourceLinkRequest');
      expect(context.version).toBe('1.3.0');
      expect(context.launchPresentation.return_url).toContain(`${issuer}/lti/return/?launch=`);
    }
    // Both launches recorded and counted in the section's analytics.
    expect(await sectionLaunchCounts(database.db, [s.sectionId])).toMatchObject({ launched: 2 });
    expect(await sectionLaunches(professor, s.sectionId)).toEqual([
      { productId: s.product13, title: expect.any(String), launched: 2, refused: 0, users: 2 },
    ]);
  });

  it('a tampered token, a replayed one and an expired one fail at the tool', async () => {
    const s = await setting();
    await registerClient(await clientIdOf(s.product13));
    const student = await person('Tam');
    await join(student, s.sectionId, 'student', true);

    // Tampered: one character of the payload changed.
    const tampered = await launch13(student, s.product13, s.sectionId);
    const [h, p, sig] = tampered.answer.idToken.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    claims.name = 'Someone Else';
    const forged = `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${sig}`;
    const refused = await tampered.browser.post(tampered.answer.redirectUri, {
      id_token: forged,
      state: tampered.answer.state,
    });
    expect(refused.status).toBe(401);

    // Replayed: a good token accepted once, then posted again.
    const good = await launch13(student, s.product13, s.sectionId);
    const fields = { id_token: good.answer.idToken, state: good.answer.state };
    expect((await good.browser.post(good.answer.redirectUri, fields)).status).toBe(302);
    expect((await good.browser.post(good.answer.redirectUri, fields)).status).toBe(401);

    // Expired: signed an hour ago (its launch started then too).
    const past = { ...student, now: new Date(Date.now() - 3_600_000) };
    const old = await launch13(past, s.product13, s.sectionId);
    expect(old.auth.status).toBe(200);
    const late = await old.browser.post(old.answer.redirectUri, {
      id_token: old.answer.idToken,
      state: old.answer.state,
    });
    expect(late.status).toBe(401);
    expect(JSON.stringify(await late.json())).toMatch(/TOKEN_TOO_OLD|exp/i);
  });

  it('our side refuses an unknown client, a reused message hint and a stranger, and says why', async () => {
    const s = await setting();
    await registerClient(await clientIdOf(s.product13));
    const student = await person('Unk');
    await join(student, s.sectionId, 'student', true);
    current = student;
    const browser = new Browser();
    const form = await startLti13Launch(student, {
      productId: s.product13,
      sectionId: s.sectionId,
      issuer,
      origin: issuer,
    });
    const login = await browser.post(form.action, form.fields);
    const authUrl = new URL(login.headers.get('location')!);
    const unknown = new URL(authUrl);
    unknown.searchParams.set('client_id', 'nobody-registered-this');
    const refused = await browser.fetch(unknown.toString());
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe('The courseware provider is not registered with us.');

    // Used once, the hint is spent.
    const first = await browser.fetch(authUrl.toString());
    expect(first.status).toBe(403); // the refusal above spent this launch
    const again = await launch13(student, s.product13, s.sectionId);
    expect(again.auth.status).toBe(200);
    const replay = await again.browser.fetch(again.auth.url);
    expect(replay.status).toBe(403);
    expect((await replay.json()).error).toBe(
      'This launch has expired or was already used. Please launch the courseware again from your shelf.',
    );

    // A student of another section (not entitled) is refused before any form is made.
    const stranger = await person('Str');
    await expect(
      startLti13Launch(stranger, {
        productId: s.product13,
        sectionId: s.sectionId,
        issuer,
        origin: issuer,
      }),
    ).rejects.toMatchObject({ messageKey: 'launch.error.notEntitled' });
    const counts = await sectionLaunchCounts(database.db, [s.sectionId]);
    expect(counts.refused).toBeGreaterThanOrEqual(2);
  });

  it('a rotated key keeps verifying launches in flight: the old key stays in the JWKS', async () => {
    const ctx = testContext(database.db, { now: new Date() });
    const before = (await platformJwks(ctx)).keys.map((k) => k.kid);
    const kid = await rotateSigningKey(ctx);
    const after = (await platformJwks(ctx)).keys.map((k) => k.kid);
    expect(after).toContain(kid);
    for (const old of before) expect(after).toContain(old);
    const muchLater = testContext(database.db, { now: new Date(Date.now() + 3 * 3_600_000) });
    const expired = (await platformJwks(muchLater)).keys.map((k) => k.kid);
    for (const old of before) expect(expired).not.toContain(old);
  });
});

describe('LTI 1.1 into ims-lti (Link 1.0, spec 1 §4)', () => {
  it('authorize, then the signed form: the tool checks the signature and reads user, roles, context', async () => {
    const s = await setting();
    const ta = await person('Ta');
    await join(ta, s.sectionId, 'teaching_assistant');
    const { targetUrl, cacheKey } = await authorizeLti11Launch(ta, {
      productId: s.product11,
      sectionId: s.sectionId,
      origin: issuer,
    });
    expect(targetUrl).toBe(`${tool11Url}/launch`);
    const form = await lti11LaunchForm(ta, {
      targetUrl,
      cacheKey,
      origin: issuer,
      consumerGuid: '127.0.0.1',
    });
    const accepted = await new Browser().post(form.action, form.fields);
    expect(await accepted.text()).toBe('ok');
    expect(received11.at(-1)).toMatchObject({
      lti_message_type: 'basic-lti-launch-request',
      roles: 'urn:lti:role:ims/lis/TeachingAssistant',
      context_id: s.rsCourseId,
      context_label: 'BIO 101 001',
      lis_person_name_full: 'Ta Peer',
    });
    expect(received11.at(-1)!.resource_link_id).toMatch(/^shelfmark-sp-\d+$/);

    // Replayed (same nonce) and tampered forms fail at the tool.
    const replay = await new Browser().post(form.action, form.fields);
    expect(replay.status).toBe(401);
    const tampered = await new Browser().post(form.action, { ...form.fields, roles: 'Instructor' });
    expect(tampered.status).toBe(401);
    // The cache key is single-use.
    await expect(
      lti11LaunchForm(ta, { targetUrl, cacheKey, origin: issuer, consumerGuid: '127.0.0.1' }),
    ).rejects.toMatchObject({ messageKey: 'launch.error.expired' });
  });

  it('an owner without a section launches with no context; a stranger is refused and recorded', async () => {
    const s = await setting();
    const owner = await person('Own');
    await database.db.insert(ownerships).values({
      userId: owner.user!.id,
      productId: s.product11,
      source: 'purchase',
      startsAt: new Date(Date.now() - DAY),
    });
    const { targetUrl, cacheKey } = await authorizeLti11Launch(owner, {
      productId: s.product11,
      sectionId: null,
      origin: issuer,
    });
    const form = await lti11LaunchForm(owner, {
      targetUrl,
      cacheKey,
      origin: issuer,
      consumerGuid: '127.0.0.1',
    });
    expect(form.fields.context_id).toBeUndefined();
    expect(form.fields.roles).toBe('Learner');
    expect(await (await new Browser().post(form.action, form.fields)).text()).toBe('ok');
    const stranger = await person('Nob');
    await expect(
      authorizeLti11Launch(stranger, { productId: s.product11, sectionId: null, origin: issuer }),
    ).rejects.toMatchObject({ messageKey: 'launch.error.notEntitled' });
    const recorded = await database.db
      .select({ outcome: ltiLaunches.outcome, reason: ltiLaunches.reason })
      .from(ltiLaunches)
      .where(eq(ltiLaunches.userId, stranger.user!.id));
    expect(recorded).toEqual([{ outcome: 'refused', reason: 'launch.error.notEntitled' }]);
  });
});
