import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { createRequestHandler, type ServerBuild } from 'react-router';
import { apiAllowedMethods, apiRoutePattern, handleApiRequest } from '#api/router.ts';
import { BACKGROUND_NICE } from '#db/backend-priority.ts';
import { type Database, type DatabaseHandle, isPoolTimeout, openDatabase } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { resolveLocale, storedChoiceOf } from '#domain/accounts/language.ts';
import { canOpenMenuItem } from '#domain/accounts/navigation.ts';
import { setHasher, setHashesAtOnce } from '#domain/accounts/password.ts';
import { findSessionUser, forgetAccounts, navigationFlags } from '#domain/accounts/service.ts';
import { csrfTokenFor, csrfTokenMatches, newToken } from '#domain/accounts/session-token.ts';
import { hasReaderFile } from '#domain/catalog/reader-file.ts';
import { productDetail } from '#domain/catalog/service.ts';
import { withAskingLocale } from '#domain/notifications/mail-locale.ts';
import {
  BILLING_TOOLS,
  PAID_UPLOAD_LIMIT_BYTES,
  PAID_UPLOAD_LIMIT_MEGABYTES,
} from '#domain/operations/billing/billing-limits.ts';
import { recordImpersonatedRequest } from '#domain/operations/helpdesk/impersonation-service.ts';
import {
  ROSTER_IMPORT_TOOLS,
  ROSTER_UPLOAD_LIMIT_BYTES,
} from '#domain/operations/roster/roster-limits.ts';
import { systemClock } from '#domain/shared/clock.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { NotFound } from '#domain/shared/errors.ts';
import { withMailHost } from '#domain/shared/mail-host.ts';
import { clearTimedCaches, forgetProducts } from '#domain/shared/timed-cache.ts';
import { dismissedBannersKey } from '#domain/sites/maintenance-banner.ts';
import { knownSite, partnerStoreOrigins, resolveSite } from '#domain/sites/service.ts';
import { ownedNoticeFragment } from '#web/catalog/owned-notice-fragment.server.tsx';
import type { ProductPersonal } from '#web/routes/product.server.ts';
import { navbarFragment } from '#web/shell/navbar-fragment.server.tsx';
import { personalPartFor } from '#web/utils/personal-part.server.ts';
import type { PersonalPart } from '#web/utils/personal-part.ts';
import { Admission, doorFor, laneOf } from './admission.ts';
import { createBookFileStore } from './book-file-store.ts';
import { clientAddressOf } from './client-address.ts';
import { encodedEtag, isCompressible, preferredEncoding, varyOnEncoding } from './compression.ts';
import { type Config, loadConfig } from './config.ts';
import { parseCookies, serializeCookie } from './cookies.ts';
import { isCsrfExempt } from './csrf-exempt.ts';
import { DatabaseHealth } from './database-health.ts';
import {
  bodyKind,
  type ClientAddress,
  createEdge,
  type EdgeListener,
  headersOf,
  localeFromHeaders,
  MAX_URL_LENGTH,
} from './edge.ts';
import { errorResponse as renderError, wantsJson } from './error-response.ts';
import { lowPriorityHasher } from './hash-threads.ts';
import {
  ANON_COOKIE,
  LANG_COOKIE,
  READER_COOKIE,
  SESSION_COOKIE,
  type WebContext,
} from './load-context.ts';
import { createLogger, type Logger } from './logger.ts';
import { createMetrics, noteOverload, noteRoute, pageRouteLabel, ROUTE_LABELS } from './metrics.ts';
import { startOrderSweeper } from './order-sweeper.ts';
import { createSender, startOutboxWorker } from './outbox-worker.ts';
import { type CachedPage, PageCache, productTag, readNotification } from './page-cache.ts';
import { pageMethodsOf } from './page-methods.ts';
import { browserPaymentsFor, createPaymentGateway } from './payment-gateway.ts';
import { splicePersonalPart } from './personal-splice.ts';
import { answerProbe, DatabaseReadiness } from './probes.ts';
import { startRosterWorker } from './roster-worker.ts';
import { applySecurityHeaders } from './security-headers.ts';
import { seedDemoIfWanted } from './seed-on-start.ts';
import { StaticFiles } from './static-files.ts';
import { workerCount } from './worker-count.ts';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * How long after a change notice the replica (DATABASE_READ_URL) is taken to show the change:
 * streaming replication on a local network replays within milliseconds (docs/scaling.md).
 */
const REPLICA_CATCH_UP_MS = 2_000;

export type AppOptions = {
  build: ServerBuild | (() => Promise<ServerBuild>);
  env?: NodeJS.ProcessEnv;
  database?: DatabaseHandle;
  /** The client build's directory: its files are answered at the edge (production). */
  staticDir?: string;
  /**
   * Whether this process sends the outbox's mail, sweeps abandoned orders and runs roster
   * imports (default: yes). A cluster's web workers leave them to its background process
   * (server/cluster.ts, issue 40), whose CPU and connections a rush's pages cannot take.
   */
  backgroundWork?: boolean;
};

export type App = {
  config: Config;
  log: Logger;
  database: DatabaseHandle;
  fetch: (request: Request, client?: ClientAddress) => Promise<Response>;
  /** The edge (server/edge.ts): what an http.Server hands each request to. */
  listener: EdgeListener;
  pageCache: PageCache;
  /** /readyz (server/probes.ts): started, not shutting down, and the database answers. */
  isReady(): Promise<boolean>;
  /**
   * The process is shutting down (server/shutdown.ts, issue 40): not ready any more, and the
   * background workers claim no new work. Requests are still answered.
   */
  beginShutdown(): void;
  /** Waits for the background work under way, then closes the database. */
  close(): Promise<void>;
};

export async function createApp(options: AppOptions): Promise<App> {
  const config = loadConfig(options.env);
  const log = createLogger(config.LOG_LEVEL);
  const database =
    options.database ??
    (await openDatabase({
      url: config.DATABASE_URL,
      readUrl: config.DATABASE_READ_URL,
      dataDir: config.DATA_DIR,
      poolSize: config.DATABASE_POOL_SIZE,
      poolWaitMs: config.DATABASE_POOL_WAIT_MS,
      queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_MS,
    }));
  await migrateDatabase(database);
  await seedDemoIfWanted(database, config, log);
  // Decision 044: at most MAX_ACTIVE_REQUESTS at once; a checkout waiting goes first.
  const cores = availableParallelism();
  const door = doorFor(cores, workerCount(config, cores).workers);
  setHashesAtOnce(door);
  setHasher(lowPriorityHasher(door));
  const admission = new Admission(config.MAX_ACTIVE_REQUESTS, door);
  /** The answer of a request whose visitor left while it waited its turn: never sent. */
  const dropped = () => new Response(null, { status: 503 });
  /** Requests let past the line as composable (`composable`): a whole render still waits. */
  const outOfLine = new WeakSet<Request>();
  const metrics = createMetrics({ database, log, token: config.METRICS_TOKEN, admission });

  const health = new DatabaseHealth(
    (timeoutMs) => database.ping(timeoutMs),
    (up) =>
      up
        ? log.warn('the database answers again')
        : log.error('the database does not answer: 503 until it is back'),
  );
  database.onConnectionError((error) => {
    // The message only: the error carries the whole pool client.
    log.warn({ reason: error.message }, 'database connection error');
    health.markDown();
  });
  // Issue 40: catalog reads leave the replica when it fails and come back when it answers.
  database.replica?.onChange((up, reason) =>
    up
      ? log.warn('the read replica answers again: catalog reads go to it')
      : log.error({ reason }, 'the read replica does not answer: catalog reads go to the primary'),
  );
  // With a replica, a process whose primary is away still serves the catalog to anonymous
  // visitors (below), and every process shares that primary: a balancer gains nothing by
  // taking them all out.
  const replica = database.replica;
  const readiness = new DatabaseReadiness((timeoutMs) =>
    replica
      ? database.ping(timeoutMs).catch(() => replica.ping(timeoutMs))
      : database.ping(timeoutMs),
  );
  let shuttingDown = false;
  const gateway = createPaymentGateway(config, database.db);
  const keys = { accessCodes: config.accessCodeKey, lti: config.ltiKey };
  const browserPayments = browserPaymentsFor(config);
  const bookFiles = await createBookFileStore(config);
  const production = config.NODE_ENV === 'production';
  const development = config.NODE_ENV === 'development';
  const renderPage = createRequestHandler(options.build as ServerBuild, config.NODE_ENV);
  const pageCache = new PageCache(
    config.PAGE_CACHE_TTL_SECONDS * 1000,
    config.PAGE_CACHE_MB * 2 ** 20,
  );
  const cacheEnabled = config.PAGE_CACHE_MB > 0;
  // Another process (or an admin's SQL) changed the catalog or a site: forget what shows it.
  // One message a turn of the event loop: an import's commit brings a dozen messages of 500
  // products at once, and handling them in one go held shoppers' requests behind it (issue 15).
  // Handling a message later is the same as receiving it later: a page stored meanwhile is
  // evicted when its turn comes.
  const notices: (string | null)[] = [];
  const forget = (payload: string | null) => {
    const notice = readNotification(payload);
    if (notice.kind === 'accounts') {
      forgetAccounts(notice.userIds);
    } else if (notice.kind === 'products') {
      forgetProducts(notice.ids);
      pageCache.invalidate(notice.tags);
    } else {
      clearTimedCaches();
      pageCache.clear();
    }
  };
  const forgetNext = () => {
    forget(notices.shift()!);
    if (notices.length > 0) setImmediate(forgetNext);
  };
  const notice = (payload: string | null) => {
    notices.push(payload);
    if (notices.length === 1) setImmediate(forgetNext);
  };
  const stopListening = await database.listen(CHANGE_CHANNEL, (payload) => {
    notice(payload);
    // Issue 40: the primary's notice may come before the replica has replayed the change, and
    // a page read from it meanwhile would show the old product until its time runs out: what
    // the notice names is forgotten once more when the replica has had time to catch up.
    if (replica) setTimeout(() => notice(payload), REPLICA_CATCH_UP_MS).unref();
  });

  // An Admin page import writes through two connections of its own, whose PostgreSQL processes
  // run in the background when the database is on this machine (db/backend-priority.ts), so
  // that shoppers' pages keep the CPU while it runs (issue 15). Opened on the first import.
  let importDatabase: Promise<DatabaseHandle> | null = null;
  const catalogImportDatabase = (): Promise<DatabaseHandle> => {
    if (database.kind !== 'postgres' || !config.DATABASE_URL) return Promise.resolve(database);
    importDatabase ??= openDatabase({
      url: config.DATABASE_URL,
      poolSize: 2,
      backendNice: BACKGROUND_NICE,
    });
    return importDatabase;
  };

  const backgroundWork = options.backgroundWork ?? true;
  const idle = async () => undefined;
  const stopOutbox = backgroundWork
    ? startOutboxWorker({
        db: database.db,
        send: createSender({ smtpUrl: config.SMTP_URL, dataDir: config.DATA_DIR }),
        publicOrigin: config.PUBLIC_ORIGIN ?? `http://localhost:${config.PORT}`,
        log,
      })
    : idle;
  const stopSweeper = backgroundWork
    ? startOrderSweeper({
        db: database.db,
        gateway,
        log,
        retentionYears: config.ORDER_RETENTION_YEARS,
      })
    : idle;
  const stopRosterWorker = backgroundWork
    ? startRosterWorker({
        db: database.db,
        store: bookFiles,
        log,
        embedded: database.kind === 'pglite',
      })
    : idle;
  // Once: each resolves when its worker is idle (the mail being sent, a sweep under way).
  let workersStopped: Promise<unknown> | null = null;
  const stopWorkers = () => {
    workersStopped ??= Promise.all([stopOutbox(), stopSweeper(), stopRosterWorker()]);
    return workersStopped;
  };
  // The demo campus's local OpenID provider (issue 20): only when configured, never in production.
  // A port already taken (another store running on this machine) leaves the store up without
  // it: the demo campus's sign-in then answers its 'unavailable' page, and the log says why.
  const devCampusIdp = config.DEV_CAMPUS_IDP_PORT
    ? await (await import('./dev-campus-idp.ts'))
        .startDevCampusIdp({
          port: config.DEV_CAMPUS_IDP_PORT,
          appOrigins: [
            ...(config.PUBLIC_ORIGIN ? [config.PUBLIC_ORIGIN.replace(/\/$/, '')] : []),
            `http://localhost:${config.PORT}`,
            `http://127.0.0.1:${config.PORT}`,
          ],
        })
        .then(async (idp) => {
          const { pointDemoCampusAt } = await import('#db/seed/campus.ts');
          await pointDemoCampusAt(database.db, config.DEV_CAMPUS_IDP_PORT!);
          return idp;
        })
        .catch((error: unknown) => {
          log.warn(
            { err: error, port: config.DEV_CAMPUS_IDP_PORT },
            'the demo campus identity provider could not start (DEV_CAMPUS_IDP_PORT); campus sign-in is unavailable',
          );
          return null;
        })
    : null;

  const seller = {
    addressLines: (config.STORE_ADDRESS ?? '')
      .split('|')
      .map((line) => line.trim())
      .filter(Boolean),
    email: config.STORE_EMAIL ?? null,
  };

  /** Renders under way, a visitor's or one behind a stored page: closing waits for them. */
  const rendering = new Set<Promise<unknown>>();
  async function handle(request: Request, client?: ClientAddress): Promise<Response> {
    const generation = pageCache.beginRender();
    const render = respond(request, generation, client);
    rendering.add(render);
    try {
      return await render;
    } finally {
      rendering.delete(render);
      pageCache.endRender(generation);
    }
  }

  /** Requests answered 503 because every database connection stayed busy (issue 37). */
  let overloaded = 0;

  async function respond(
    request: Request,
    generation: number,
    client?: ClientAddress,
  ): Promise<Response> {
    const requestId = randomUUID();
    const started = performance.now();
    const headerOf = (name: string) => request.headers.get(name);
    const url = new URL(request.url);
    let response: Response;
    let context: WebContext | null = null;
    let newAnonKey: (() => string | null) | null = null;
    try {
      const primaryUp = await health.isUp();
      if (primaryUp || replicaServes(request)) {
        // Issue 40: while the primary is away, an anonymous page is read from the replica
        // alone; a write on it fails, and is answered 503 below as the primary's absence.
        const built = await buildContext(
          request,
          client,
          requestId,
          primaryUp ? null : replica!.db,
        );
        context = built.context;
        newAnonKey = built.newAnonKey;
        const web = built.context;
        // Mail queued by this request leads back to its white-label site (issue 37).
        const site = web.rc.site;
        const mailHost = site.whiteLabelId !== null ? site.host : null;
        response =
          (await checkCsrf(request, web)) ??
          (await recordSwitchedRequest(request, web)) ??
          (await withMailHost(mailHost, () =>
            withAskingLocale(web.rc.locale, async () =>
              url.pathname.startsWith('/api/')
                ? handleApiRequest(request, web)
                : ((await composedPage(request, url, web)) ??
                  // A request let past the line as composable that was not (a session gone,
                  // another language) takes its place in line for the render (decision 044).
                  (outOfLine.has(request)
                    ? admission.run(
                        'browsing',
                        request.signal,
                        () => renderPage(protocolPost(request), web),
                        dropped,
                      )
                    : renderPage(protocolPost(request), web))),
            ),
          ));
      } else {
        response = unavailable(request);
      }
    } catch (error) {
      if (!isPoolTimeout(error))
        log.error({ err: error, requestId, url: request.url }, 'unhandled error');
      response = genericError(request, context?.rc.locale ?? 'en');
    }
    // Every connection of the pool stayed busy past DATABASE_POOL_WAIT_MS while this request
    // waited: overload, not a fault. The visitor is told to come back in a few seconds (a
    // stored anonymous page was already served above without the database), and it is counted.
    if (
      response.status >= 500 &&
      response.status !== 503 &&
      database.lastPoolTimeout() >= started
    ) {
      overloaded += 1;
      noteOverload();
      log.warn(
        { requestId, url: request.url, refusedSinceStart: overloaded },
        'every database connection busy: answered 503',
      );
      response = unavailable(request);
    }
    // The metrics' label: the route's pattern, never the URL (server/metrics.ts).
    const route = url.pathname.startsWith('/api/')
      ? (apiRoutePattern(url.pathname) ?? ROUTE_LABELS.unmatched)
      : pageRouteLabel(context?.matchedRoute.pattern ?? null);
    noteRoute(route);
    // A failure because the database went away is not the visitor's problem: say so, and when
    // to come back, instead of a 500.
    if (response.status >= 500 && response.status !== 503 && !(await health.check())) {
      response = unavailable(request);
    }
    // Headers of some responses (Response.redirect, fetched ones) are immutable: copy those
    // before we add ours; the pages we render can take them as they are.
    try {
      response.headers.set('X-Request-Id', requestId);
    } catch {
      response = new Response(response.body, response);
    }
    const https = isHttps(request, config);
    const html = (response.headers.get('Content-Type') ?? '').startsWith('text/html');
    applySecurityHeaders(response.headers, {
      scriptHashes: context?.scriptHashes ?? [],
      production: production && https,
      development,
      stripe: browserPayments.gateway === 'stripe',
      // A page may post the partner hand-off form to a bookstore partner's store.
      formActions:
        html && context
          ? [...(context.formActions ?? []), ...(await formActionOrigins(context))]
          : [],
    });
    response.headers.set('X-Request-Id', requestId);
    const key = cacheEnabled
      ? publicPageKey(request.method, url.pathname + url.search, headerOf)
      : null;
    if (
      key &&
      context?.publicPage &&
      !context.rc.user &&
      response.status === 200 &&
      html &&
      !response.headers.has('Set-Cookie')
    ) {
      // Anonymous and shareable: store this rendering and answer from it.
      for (const [name, value] of Object.entries(PUBLIC_PAGE_HEADERS))
        response.headers.set(name, value);
      const page = pageCache.set(
        key,
        {
          status: 200,
          body: Buffer.from(await response.arrayBuffer()),
          headers: [...response.headers].filter(([name]) => name !== 'x-request-id'),
          tags: [...context.publicPage.productIds].map(productTag),
          route,
          scriptHashes: context.scriptHashes,
          personal: context.publicPage.personal,
        },
        generation,
      );
      return cachedResponse(page, headerOf, requestId, request.method);
    }
    if (html && !response.headers.has('Cache-Control')) {
      response.headers.set('Cache-Control', 'private, no-store');
    }
    const anonKeyToSet = newAnonKey?.() ?? null;
    if (anonKeyToSet) {
      response.headers.append(
        'Set-Cookie',
        serializeCookie(ANON_COOKIE, anonKeyToSet, {
          secure: https,
          maxAgeSeconds: 60 * 60 * 24 * 30,
        }),
      );
    }
    log.debug(
      {
        requestId,
        method: request.method,
        url: request.url,
        status: response.status,
        ms: Math.round(performance.now() - started),
      },
      'request',
    );
    return response;
  }

  /**
   * Whether the replica answers this request while the primary is away: a read (GET, HEAD) by
   * a visitor without a session, when the replica answers.
   */
  function replicaServes(request: Request): boolean {
    if (!replica || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
    if (parseCookies(request.headers.get('cookie')).has(SESSION_COOKIE)) return false;
    return replica.isUp();
  }

  /**
   * Decision 043: a logged-in visitor's GET of a public page whose anonymous rendering is stored
   * (in their language, site and country) is that page plus their personal part, without a
   * React render. Null: render it whole, as for any other page; the anonymous rendering is
   * then stored in the background, for the next request.
   */
  async function composedPage(
    request: Request,
    url: URL,
    context: WebContext,
  ): Promise<Response | null> {
    const user = context.rc.user;
    if (!cacheEnabled || !user || request.method !== 'GET' || !context.documentRequest) return null;
    const headerOf = (name: string) => request.headers.get(name);
    const key = pageKeyFor(context.rc.locale, url.pathname + url.search, headerOf);
    if (!key) return null;
    const page = pageCache.get(key);
    if (!page) {
      storeAnonymousPage(request, url, context.rc.locale, key);
      return null;
    }
    if (!page.personal) return null;
    const part = await personalPartFor(context, url, page.personal);
    if (!part) return null;
    const pageSlots =
      page.personal.page === 'product'
        ? await productSlots(context, page.personal.productId, part)
        : {};
    // The product gone since its part was read: rendered whole, it says so, as to anyone.
    if (!pageSlots) return null;
    const body = splicePersonalPart(
      page.body,
      {
        navbar: await navbarFragment({
          locale: context.rc.locale,
          links: context.rc.site.links,
          part,
          next: url.pathname + url.search,
        }),
        ...pageSlots,
      },
      part,
    );
    if (body === null) return null;
    context.scriptHashes = page.scriptHashes ?? [];
    // Counted under the stored page's route, not as unrouted (no router ran).
    context.matchedRoute.pattern ??= page.route ?? null;
    const headers = new Headers(
      page.headers.filter(([name]) => !COMPOSED_DROPS.has(name.toLowerCase())),
    );
    // The visitor's own page: never kept by a shared cache, nor by the browser.
    headers.set('Cache-Control', 'private, no-store');
    // Bytes as they are (Buffer.concat's own memory, never a shared pool's).
    return new Response(body as Uint8Array<ArrayBuffer>, { status: page.status, headers });
  }

  /**
   * A product page's own places for the visitor (decision 043): what they have of it and the
   * way in, and no buy panel when nothing is left to buy, as the page renders them.
   */
  async function productSlots(
    context: WebContext,
    productId: number,
    part: PersonalPart,
  ): Promise<Record<string, string> | null> {
    const personal = part.page as ProductPersonal;
    const detail = await productDetail(context.catalogRc, productId).catch((error: unknown) => {
      if (error instanceof NotFound) return null;
      throw error;
    });
    if (!detail) return null;
    return {
      owned: await ownedNoticeFragment({
        locale: context.rc.locale,
        productId,
        hasReaderFile: hasReaderFile(detail.bookFiles),
        personal,
      }),
      ...(personal.nothingToBuy ? { buy: '' } : {}),
    };
  }

  /**
   * Whether a logged-in visitor's GET will likely be composed from a stored page (decision
   * 043): a session cookie, and the stored anonymous page of this path in the language their
   * cookies ask for, with its recipe. Such a page costs a few cached reads and a splice, so it
   * never waits in a lane (decision 044). A wrong guess (a session gone, another language)
   * takes its place in line for the whole render (`outOfLine` in respond); one wrong the other
   * way only means it waited.
   */
  function composable(request: Request): boolean {
    if (!cacheEnabled || pageCache.size === 0) return false;
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const headerOf = (name: string) => request.headers.get(name);
    const cookies = parseCookies(headerOf('cookie'));
    if (!cookies.has(SESSION_COOKIE)) return false;
    const url = new URL(request.url);
    const key = anonymousPageKey(url.pathname + url.search, headerOf, cookies);
    return !!(key && pageCache.get(key)?.personal);
  }

  /** Renders a page as an anonymous visitor would see it, in this language, and stores it. */
  const anonymousRenders = new Set<string>();
  function storeAnonymousPage(request: Request, url: URL, locale: string, key: string): void {
    if (anonymousRenders.has(key) || anonymousRenders.size >= 8) return;
    anonymousRenders.add(key);
    const headers = new Headers();
    for (const name of ['host', 'accept-language', 'cf-ipcountry', 'x-country-code']) {
      const value = request.headers.get(name);
      if (value) headers.set(name, value);
    }
    // The visitor's other cookies (dismissed banners) without their session: the key's.
    const cookies = [...parseCookies(request.headers.get('cookie'))]
      .filter(([name]) => name !== SESSION_COOKIE && name !== ANON_COOKIE && name !== LANG_COOKIE)
      .map(([name, value]) => `${name}=${value}`);
    headers.set('cookie', [...cookies, `${LANG_COOKIE}=${locale}`].join('; '));
    handle(new Request(url, { headers }))
      .then((response) => response.body?.cancel())
      .catch((error: unknown) =>
        log.warn({ err: error, url: url.href }, 'an anonymous page was not stored'),
      )
      .finally(() => anonymousRenders.delete(key));
  }

  async function buildContext(
    request: Request,
    client: ClientAddress | undefined,
    requestId: string,
    /** The replica, when the primary is away and it answers this anonymous read alone. */
    readOnly: Database | null = null,
  ): Promise<{ context: WebContext; newAnonKey: () => string | null }> {
    const cookies = parseCookies(request.headers.get('cookie'));
    const now = new Date();
    const db = readOnly ?? database.db;
    const site = await resolveSite(db, request.headers.get('host'));
    const sessionToken = cookies.get(SESSION_COOKIE) ?? null;
    const user = sessionToken ? await findSessionUser(db, sessionToken, now) : null;
    const session = user ? { userId: user.id } : null;
    const anonKey = cookies.get(ANON_COOKIE);
    const readerOf = cookies.get(READER_COOKIE);
    const newAnonKey = !session && !(anonKey && /^[\w-]{20,64}$/.test(anonKey)) ? newToken() : null;
    const csrfKey = session && sessionToken ? sessionToken : (newAnonKey ?? anonKey!);
    const locale = resolveLocale({
      userChoice: storedChoiceOf(user),
      cookie: cookies.get(LANG_COOKIE),
      acceptLanguage: request.headers.get('accept-language'),
      allowed: site.allowedLanguages,
    });
    // A new visitor's key is only sent when this response handed out a token bound to it:
    // two requests at once (a token fetch and a cart fetch) must not set two different keys.
    let tokenUsed = false;
    const csrfToken = csrfTokenFor(config.sessionSecret, csrfKey);
    const rc: RequestContext = {
      db,
      site,
      user,
      locale,
      requestId,
      // Behind a trusted reverse proxy, the visitor's address it forwarded (TRUSTED_PROXIES).
      ipAddress: clientAddressOf(
        client?.address ?? '127.0.0.1',
        request.headers.get('x-forwarded-for'),
        config.trustedProxies,
      ),
      country: countryOf((name) => request.headers.get(name)),
      now,
      clock: systemClock,
      keys,
      shippingRateCents: config.SHIPPING_RATE_CENTS,
    };
    const context: WebContext = {
      rc,
      // Public catalog reads (issue 40): the replica while it answers, else the primary.
      catalogRc: readOnly ? rc : { ...rc, db: database.catalogDb },
      log: log.child({ requestId }),
      scriptHashes: [],
      documentRequest: !new URL(request.url).pathname.endsWith('.data'),
      streamedUpload:
        request.method === 'POST' && bodyKind(new URL(request.url).pathname) === 'upload',
      serverOnly: new Map(),
      matchedRoute: { pattern: null },
      publicPage: null,
      get csrfToken() {
        tokenUsed = true;
        return csrfToken;
      },
      sessionToken: session ? sessionToken : null,
      userAgent: request.headers.get('user-agent')?.slice(0, 512) ?? null,
      anonymousKey: anonKey && /^[\w-]{20,64}$/.test(anonKey) ? anonKey : null,
      readerOf: /^[1-9]\d{0,9}$/.test(readerOf ?? '') ? Number(readerOf) : null,
      secureCookies: isHttps(request, config),
      isDevelopment: development,
      loopbackIdentityProviders: !production || config.PAYMENTS === 'test',
      database,
      catalogImportDatabase,
      gateway,
      browserPayments,
      bookFiles,
      vitalsourceUrl: config.VITALSOURCE_URL ?? null,
      orderRetentionYears: config.ORDER_RETENTION_YEARS,
      seller,
    };
    // Reading the token is what hands it out: a copy of the context (React Router's
    // instrumentation makes one for each loader, server/route-pattern.ts) must not read it.
    Object.defineProperty(context, 'csrfToken', { enumerable: false });
    return { newAnonKey: () => (tokenUsed ? newAnonKey : null), context };
  }

  async function formActionOrigins(context: WebContext): Promise<string[]> {
    try {
      return await partnerStoreOrigins(context.rc.db);
    } catch (error) {
      context.log.error({ err: error }, 'partner store origins');
      return [];
    }
  }

  async function checkCsrf(request: Request, context: WebContext): Promise<Response | null> {
    if (!UNSAFE_METHODS.has(request.method)) return null;
    if (isCsrfExempt(new URL(request.url).pathname)) return null;
    const cookies = parseCookies(request.headers.get('cookie'));
    const key = context.sessionToken ?? cookies.get(ANON_COOKIE) ?? '';
    let presented: unknown = request.headers.get('x-csrftoken');
    const type = request.headers.get('content-type') ?? '';
    if (
      !presented &&
      (type.startsWith('application/x-www-form-urlencoded') ||
        type.startsWith('multipart/form-data'))
    ) {
      try {
        presented = (await request.clone().formData()).get('csrfmiddlewaretoken');
      } catch {
        presented = null;
      }
    }
    const origin = request.headers.get('origin');
    const sameOrigin = !origin || origin === new URL(request.url).origin;
    if (key && sameOrigin && csrfTokenMatches(config.sessionSecret, key, presented)) return null;
    return errorResponse(request, context.rc.locale, 403, 'error.csrf');
  }

  /**
   * Issue 39: a request that may change something, made while a manager acts as someone
   * (Switch Account), is recorded with both identities before it runs (decision 039).
   */
  async function recordSwitchedRequest(request: Request, context: WebContext): Promise<null> {
    const user = context.rc.user;
    if (user?.isImpersonating) {
      await recordImpersonatedRequest(context.rc.db, user, {
        method: request.method,
        // A page's form posts to its '.data' URL when JavaScript runs: the same page.
        path: new URL(request.url).pathname.replace(/\.data$/, ''),
      });
    }
    return null;
  }

  const staticFiles = options.staticDir ? new StaticFiles(options.staticDir) : null;
  const resolveBuild = async () =>
    typeof options.build === 'function' ? await options.build() : options.build;
  let pageMethods: ReturnType<typeof pageMethodsOf> | null = null;
  // Every request is timed and counted by its route (server/metrics.ts); GET /metrics is
  // answered there, before the edge, the page cache or a page sees it.
  const edge = metrics.observe(
    createEdge({
      log,
      https: production && (config.PUBLIC_ORIGIN ?? '').startsWith('https:'),
      limits: {
        form: config.FORM_BODY_LIMIT_BYTES,
        api: config.API_BODY_LIMIT_BYTES,
        webhook: config.WEBHOOK_BODY_LIMIT_BYTES,
        idleMs: config.BODY_IDLE_TIMEOUT_MS,
        totalMs: config.BODY_TIMEOUT_MS,
      },
      async allowedMethods(pathname, search) {
        if (staticFiles?.has(pathname)) return ['GET', 'HEAD', 'OPTIONS'];
        if (pathname.startsWith('/api/')) {
          const allowed = apiAllowedMethods(pathname);
          if (!allowed) noteRoute(ROUTE_LABELS.unmatched);
          return allowed;
        }
        // In development the build changes under us: ask it each time.
        const methods =
          pageMethods && !development ? pageMethods : pageMethodsOf(await resolveBuild());
        pageMethods = methods;
        const allowed = methods(pathname, search);
        if (!allowed) noteRoute(ROUTE_LABELS.unmatched);
        return allowed;
      },
      serveDirect(req, res) {
        if (staticFiles?.serve(req, res)) {
          noteRoute(ROUTE_LABELS.static);
          return true;
        }
        return servePageFromCache(req, res);
      },
      // Work starts when this process has room for it, in the request's lane's turn (decision
      // 044); a visitor gone while waiting costs nothing more (the answer is never sent).
      handle: (request, client) => {
        if (composable(request)) {
          outOfLine.add(request);
          return handle(request, client);
        }
        return admission.run(
          laneOf(request.method, new URL(request.url).pathname),
          request.signal,
          () => handle(request, client),
          dropped,
        );
      },
      uploads: {
        dir: path.join(config.DATA_DIR, 'uploads'),
        maxBytes: config.UPLOAD_LIMIT_BYTES,
        maxFiles: 5_000,
        idleMs: Math.max(config.BODY_IDLE_TIMEOUT_MS, 60_000),
        totalMs: config.UPLOAD_TIMEOUT_MS,
        // Only a manager's upload is read (the Admin page, issue 15); anyone else's is refused
        // before its first byte reaches the disk.
        async authorize(headers, host, pathname) {
          const token = parseCookies(headers.cookie ?? null).get(SESSION_COOKIE);
          if (!token) return false;
          const user = await findSessionUser(database.db, token, new Date());
          if (!user) return false;
          const flags = navigationFlags(user, await resolveSite(database.db, host));
          // Issue 39: a roster package, for whom the roster import page opens (its menu's rule).
          if (pathname.startsWith('/manage/roster-imports')) {
            return ROSTER_IMPORT_TOOLS.some((item) => canOpenMenuItem(flags, item));
          }
          // A campus's paid file, for whom billing opens; the term's scope is the page's to check.
          if (pathname.startsWith('/manage/billing/')) {
            return BILLING_TOOLS.some((item) => canOpenMenuItem(flags, item));
          }
          return flags.isManager;
        },
        limitFor: (pathname) =>
          pathname.startsWith('/manage/roster-imports')
            ? Math.min(ROSTER_UPLOAD_LIMIT_BYTES, config.UPLOAD_LIMIT_BYTES)
            : pathname.startsWith('/manage/billing/')
              ? Math.min(PAID_UPLOAD_LIMIT_BYTES, config.UPLOAD_LIMIT_BYTES)
              : config.UPLOAD_LIMIT_BYTES,
        tooLargeFor: (pathname) =>
          pathname.startsWith('/manage/billing/')
            ? {
                key: 'ops.billing.paid.error.tooLarge',
                params: { max: PAID_UPLOAD_LIMIT_MEGABYTES },
              }
            : null,
      },
    }),
  );

  const isReady = async () => !shuttingDown && (await readiness.answers());
  // The balancer's probes first: no site, session, page cache or log line (server/probes.ts).
  const listener: EdgeListener = (req, res) => {
    if (!answerProbe(req, res, isReady)) edge(req, res);
  };

  // The hot path: a stored anonymous page is written straight to the socket, before any
  // Fetch Request/Response objects, database query or React render.
  function servePageFromCache(req: IncomingMessage, res: ServerResponse): boolean {
    const key =
      cacheEnabled && pageCache.size > 0
        ? publicPageKey(req.method ?? 'GET', req.url ?? '/', (name) => {
            const value = req.headers[name];
            return Array.isArray(value) ? value.join(', ') : (value ?? null);
          })
        : null;
    const page = key ? pageCache.get(key) : undefined;
    if (!key || !page) return false;
    noteRoute(page.route ?? ROUTE_LABELS.unrouted);
    if (pageCache.claimRefresh(key)) renderAgain(req);
    const contentType = page.headers.find(([name]) => name === 'content-type')?.[1];
    const encoding = isCompressible(contentType)
      ? preferredEncoding(req.headers['accept-encoding'])
      : null;
    const etag = encodedEtag(page.etag, encoding);
    const notModified = etagMatches(req.headers['if-none-match'], etag);
    res.statusCode = notModified ? 304 : page.status;
    for (const [name, value] of page.headers) {
      if (notModified && (name === 'content-type' || name === 'content-length')) continue;
      res.setHeader(name, value);
    }
    res.setHeader('etag', etag);
    res.setHeader('vary', varyOnEncoding(res.getHeader('vary') as string | undefined));
    res.setHeader('x-request-id', randomUUID());
    if (notModified) {
      res.end();
      return true;
    }
    const body = encoding ? pageCache.encodedBody(key, page, encoding) : page.body;
    if (encoding) res.setHeader('content-encoding', encoding);
    res.setHeader('content-length', body.length);
    if (req.method === 'HEAD') res.end();
    else res.end(body);
    return true;
  }

  /**
   * Renders a stored page past its time to live again, as this request would have, and stores
   * it; nobody waits for it: the visitor and everyone meanwhile get the old copy (issue 15).
   */
  function renderAgain(req: IncomingMessage): void {
    const headers = headersOf(req);
    headers.delete('if-none-match');
    headers.delete('if-modified-since');
    const request = new Request(
      new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`),
      {
        headers,
      },
    );
    handle(request)
      .then((response) => response.body?.cancel())
      .catch((error: unknown) =>
        log.warn({ err: error, url: req.url }, 'a stored page was not rendered again'),
      );
  }

  return {
    config,
    log,
    database,
    fetch: handle,
    listener,
    pageCache,
    isReady,
    beginShutdown() {
      shuttingDown = true;
      void stopWorkers();
    },
    async close() {
      metrics.close();
      shuttingDown = true;
      await stopWorkers();
      await Promise.allSettled([...rendering]);
      await devCampusIdp?.close();
      await stopListening();
      if (importDatabase) await (await importDatabase).close();
      await database.close();
    },
  };
}

const CHANGE_CHANNEL = 'shelfmark_cache';

// Shared caches may keep an anonymous page, but must ask us again each time (the ETag makes
// that a 304) and must keep one copy per cookie, language and country.
const PUBLIC_PAGE_HEADERS = {
  'Cache-Control': 'public, no-cache',
  Vary: 'Cookie, Accept-Language, CF-IPCountry, X-Country-Code',
};

type HeaderOf = (name: string) => string | null;

/**
 * The page-cache key of a request a visitor without a session makes: site, language and
 * country decide what an anonymous page shows, then the path and query. Null when the
 * request may be personal or the site is not known to this process yet.
 */
function publicPageKey(method: string, pathAndSearch: string, headerOf: HeaderOf): string | null {
  if (method !== 'GET' && method !== 'HEAD') return null;
  const cookies = parseCookies(headerOf('cookie'));
  if (cookies.has(SESSION_COOKIE)) return null;
  return anonymousPageKey(pathAndSearch, headerOf, cookies);
}

/** The key of the anonymous page in the language this browser's cookies and headers ask for. */
function anonymousPageKey(
  pathAndSearch: string,
  headerOf: HeaderOf,
  cookies: Map<string, string>,
): string | null {
  const site = knownSite(headerOf('host'));
  if (!site) return null;
  const locale = resolveLocale({
    userChoice: undefined,
    cookie: cookies.get(LANG_COOKIE),
    acceptLanguage: headerOf('accept-language'),
    allowed: site.allowedLanguages,
  });
  return pageKeyFor(locale, pathAndSearch, headerOf, cookies);
}

/**
 * The key of the anonymous page shown in this language to this request's site and country:
 * what a visitor without a session would be answered, and what a logged-in visitor's page is
 * composed from (decision 043: their stored language choice decides it).
 */
function pageKeyFor(
  locale: string,
  pathAndSearch: string,
  headerOf: HeaderOf,
  cookies = parseCookies(headerOf('cookie')),
): string | null {
  if (pathAndSearch.startsWith('/api/') || pathAndSearch.length > MAX_URL_LENGTH) return null;
  const site = knownSite(headerOf('host'));
  if (!site) return null;
  // The maintenance banners this browser dismissed are left out of its pages (spec 1 §1).
  const dismissed = dismissedBannersKey(cookies);
  return `${site.host}\u0000${locale}\u0000${countryOf(headerOf)}\u0000${dismissed}\u0000${pathAndSearch}`;
}

/** A stored page's headers a composed one does not carry: it is private, has its own length, and its policy is set again. */
const COMPOSED_DROPS = new Set([
  'cache-control',
  'etag',
  'content-length',
  'content-security-policy',
]);

function etagMatches(header: string | string[] | null | undefined, etag: string): boolean {
  if (!header) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  return value.split(',').some((tag) => {
    const t = tag.trim();
    return t === etag || t === `W/${etag}` || t === '*';
  });
}

function cachedResponse(
  page: CachedPage,
  headerOf: HeaderOf,
  requestId: string,
  method: string,
): Response {
  const notModified = etagMatches(headerOf('if-none-match'), page.etag);
  const headers = new Headers(page.headers);
  headers.set('ETag', page.etag);
  headers.set('X-Request-Id', requestId);
  if (notModified) {
    headers.delete('Content-Type');
    headers.delete('Content-Length');
    return new Response(null, { status: 304, headers });
  }
  return new Response(method === 'HEAD' ? null : new Uint8Array(page.body), {
    status: page.status,
    headers,
  });
}

/**
 * Secure cookies and HSTS only over HTTPS: `npm start` serves plain http on localhost, where
 * HSTS would pin the developer's browser to https. Behind a TLS proxy, set PUBLIC_ORIGIN.
 */
function isHttps(request: Request, config: Config): boolean {
  return (
    new URL(request.url).protocol === 'https:' || (config.PUBLIC_ORIGIN ?? '').startsWith('https:')
  );
}

/** The shopper's country as a CDN in front of us reports it; US when none does. */
function countryOf(headerOf: HeaderOf): string {
  const raw = (headerOf('cf-ipcountry') ?? headerOf('x-country-code') ?? '').toUpperCase();
  return /^[A-Z]{2}$/.test(raw) ? raw : 'US';
}

/** A failure outside any page, for a Fetch request: see error-response.ts. */
function errorResponse(
  request: Request,
  locale: 'en' | 'fr-CA',
  status: number,
  key: string,
): Response {
  const json = wantsJson(new URL(request.url).pathname, request.headers.get('accept'));
  return renderError({ json, locale, status, key });
}

/**
 * A POST another site makes by design (a campus's SAML answer, a courseware tool's launch:
 * server/csrf-exempt.ts), handed to React Router without its Origin header. React Router
 * refuses an action whose Origin is another site's or `null` (its own CSRF check), before
 * any of the protocol's checks run: every real SAML sign-in failed with 400 (issue 37). These
 * exact paths check what their protocol signs instead (signature, audience, InResponseTo,
 * state, nonce); every other path keeps both CSRF checks.
 */
function protocolPost(request: Request): Request {
  if (request.method !== 'POST' || !request.headers.has('origin')) return request;
  if (!isCsrfExempt(new URL(request.url).pathname)) return request;
  const headers = new Headers(request.headers);
  headers.delete('origin');
  return new Request(request, { headers });
}

/** 503 while the database is away, in the visitor's language, with Retry-After. */
function unavailable(request: Request): Response {
  const json = wantsJson(new URL(request.url).pathname, request.headers.get('accept'));
  return renderError({
    json,
    locale: localeFromHeaders((name) => request.headers.get(name)),
    status: 503,
    key: 'error.unavailable',
    headers: { 'Retry-After': '5' },
  });
}

function genericError(request: Request, locale: 'en' | 'fr-CA'): Response {
  const json = wantsJson(new URL(request.url).pathname, request.headers.get('accept'));
  return renderError({ json, locale, status: 500, key: json ? 'error.generic' : 'error.heading' });
}
