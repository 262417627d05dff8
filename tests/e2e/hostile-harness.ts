import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows } from '#db/client.ts';
import { en } from '#i18n/messages/en.ts';
import { frCA } from '#i18n/messages/fr-CA.ts';
import { postDemoCode } from './browser.ts';
import {
  BAD_ID_NUMBERS,
  BAD_IDS,
  BAD_TEXT,
  type Hostile,
  LONG,
  notNumbers,
  notStrings,
  numbers,
  othersId,
} from './hostile-values.ts';

// The machinery of the hostile-input suites (issue 18, and issue 39's campus tools in
// hostile-input-operations.test.ts): the built server in this process on a seeded database of
// its own, browsers signed in through the login form, each call varied one hostile value at a
// time, each answer checked (no 5xx, the language asked for) and the database digested before
// and after.

type Entry = typeof import('#server/entry.ts');
export type App = Awaited<ReturnType<Entry['startApp']>>;
export type Locale = 'en' | 'fr-CA';

export const CONCURRENCY = 8;
export const DEMO_PASSWORD = 'shelfmark-demo';
export const FORM = 'application/x-www-form-urlencoded';
export const JSON_API = 'application/vnd.api+json';
export const FOREIGN_ORIGIN = 'https://attacker.example';

/** A browser: its cookies (anon, sid) and the CSRF token bound to them. */
export type Session = { cookies: Map<string, string>; token: string };
export type Role = Session & { name: string; email: string | null; userId: number | null };

export type HostileServer = { app: App; base: string; close: () => Promise<void> };

/**
 * A database of its own on the PostgreSQL server at `serverUrl` (HOSTILE_DATABASE_URL: CI's
 * throwaway server), dropped when the suite ends. On PGlite the suite's queries and the demo
 * seed run on the suite's one thread, in WebAssembly; on a server they run beside it, on the
 * other core (docs/ci.md, session 31).
 */
async function ownDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const { default: pg } = await import('pg');
  const name = `shelfmark_hostile_${process.pid}_${Date.now().toString(36)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${pg.escapeIdentifier(name)}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`),
  };
}

let base = '';

/**
 * Starts the built server in this process, on a fresh embedded database seeded with the demo;
 * `settings` are configuration variables of the suite's own (a smaller upload limit).
 */
export async function startHostileServer(
  settings: Record<string, string> = {},
): Promise<HostileServer> {
  // React picks its build by NODE_ENV when first loaded, and Vitest set it to 'test': the
  // server here would render with React's development build, twice as slow as what runs in
  // production (issue 36). Nothing in a hostile file loads React before this line.
  process.env.NODE_ENV = 'production';
  const entry = (await import(path.resolve('build/server/index.js'))) as Entry;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shelfmark-hostile-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    DEMO_DATA: 'on',
    LOG_LEVEL: 'silent',
    PORT: '3000',
    PUBLIC_ORIGIN: 'http://127.0.0.1:3000',
    // A test deployment: test cards, demo accounts, and keys of its own (decision 011).
    PAYMENTS: 'test',
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ACCESS_CODE_KEY: randomBytes(32).toString('hex'),
    LTI_KEY: randomBytes(32).toString('hex'),
    ...settings,
  };
  delete env.DATABASE_URL;
  const serverUrl = process.env.HOSTILE_DATABASE_URL;
  const database = serverUrl ? await ownDatabase(serverUrl) : null;
  if (database) env.DATABASE_URL = database.url;
  const app = await entry.startApp({ env, staticDir: path.resolve('build/client') });
  const server: Server = entry.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    app,
    base,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await app.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function baseUrl(): string {
  return base;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY * 2 });
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * fetch, with a Host header of the caller's choosing (a white-label site on this server):
 * Node's fetch sends the URL's own host whatever the headers say.
 */
export async function fetchAs(
  url: string,
  init: RequestInit & { host?: string },
): Promise<Response> {
  if (!init.host) return fetch(url, init);
  const target = new URL(url);
  const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
  headers.host = `${init.host}:${target.port}`;
  const body =
    init.body === undefined || init.body === null
      ? null
      : typeof init.body === 'string'
        ? Buffer.from(init.body)
        : Buffer.from(init.body as Uint8Array);
  if (body) headers['content-length'] = String(body.length);
  return new Promise<Response>((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: init.method ?? 'GET',
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const out = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const one of Array.isArray(value) ? value : [value ?? '']) out.append(name, one);
          }
          const status = res.statusCode ?? 500;
          resolve(
            new Response(NULL_BODY.has(status) ? null : Buffer.concat(chunks), {
              status,
              headers: out,
            }),
          );
        });
      },
    );
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

export function cookieHeader(cookies: Map<string, string>, locale?: Locale): string {
  const pairs = [...cookies].map(([name, value]) => `${name}=${value}`);
  if (locale) pairs.push(`LANG=${locale}`);
  return pairs.join('; ');
}

export function keepCookies(cookies: Map<string, string>, response: Response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if (/Max-Age=0/i.test(line) || value === '') cookies.delete(name);
    else cookies.set(name, value);
  }
}

/** A new browser: the anonymous cookie and its token, as the header's script gets them. */
export async function visit(): Promise<Session> {
  const cookies = new Map<string, string>();
  const response = await fetch(`${base}/api/account/login`);
  keepCookies(cookies, response);
  const token = ((await response.json()) as { data: { attributes: { csrfToken: string } } }).data
    .attributes.csrfToken;
  return { cookies, token };
}

/** Logs in through the login form, as a person does, then reads the session's token. */
export async function logIn(email: string): Promise<Session> {
  const { cookies, token } = await visit();
  const form = new URLSearchParams({
    csrfmiddlewaretoken: token,
    email,
    password: DEMO_PASSWORD,
    next: '/',
  });
  let response = await fetch(`${base}/accounts/login/`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: cookieHeader(cookies), 'content-type': FORM },
    body: form.toString(),
  });
  expect(response.status, `${email} logs in`).toBe(302);
  keepCookies(cookies, response);
  if (response.headers.get('location')?.startsWith('/accounts/login/verify')) {
    // Managers answer their second factor (issue 20).
    response = await postDemoCode({ base, cookie: cookieHeader(cookies), csrfToken: token, email });
    expect(response.status, `${email} passes the second step`).toBe(302);
    keepCookies(cookies, response);
  }
  expect(cookies.has('sid'), `${email} has a session`).toBe(true);
  const me = await fetch(`${base}/api/account/login`, {
    headers: { cookie: cookieHeader(cookies) },
  });
  const after = ((await me.json()) as { data: { attributes: { csrfToken: string } } }).data
    .attributes.csrfToken;
  return { cookies, token: after };
}

// ---------------------------------------------------------------------------------------------
// What each field accepts decides which values are hostile there: a value a real request could
// send (a short free text, an existing section) is no attack, and would change state rightly.

export type Kind =
  /** A decimal id as text: in a path, a query or a form field. */
  | 'id'
  /** Text from a fixed set, or a code, e-mail or path that none of the id strings is. */
  | 'choice'
  /** As 'choice', for text no id is (a date, a time zone): three id strings stand for all. */
  | 'text'
  /** Free text up to a maximum length: any short text is valid. */
  | 'bounded'
  /** Text the call does not read, or reads leniently (a `next` falling back to /). */
  | 'ignored'
  /** An idempotency key: 8 to 100 characters. */
  | 'key'
  /** An id as a JSON number. */
  | 'jsonId'
  /** A JSON number in a range: these raw numbers are outside it. */
  | { outside: string[] };

export type Field<R extends Role = Role> = {
  in: 'path' | 'query' | 'form' | 'json';
  /** Path parameter, query or form name, or a dotted path into the JSON body. */
  name: string;
  kind: Kind;
  nullable?: boolean;
  /** Ids of the same kind that belong to someone else (or to nothing this role may touch). */
  others?: (role: R) => (string | number)[];
  /** Values of the kind's list that this field accepts, by name (each says why). */
  accepts?: string[];
};

export type Valid = {
  path?: Record<string, string | number>;
  query?: Record<string, string | number>;
  form?: Record<string, string | number>;
  json?: unknown;
};

export type Call<R extends Role = Role> = {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: 'form' | 'jsonapi' | 'json';
  fields: Field<R>[];
  /** What this role's real request sends: varied by each hostile request, sent as it is last. */
  valid: (role: R) => Valid;
  /** The call takes no document (opt-in): an empty body is no attack. */
  emptyBodyIsValid?: boolean;
  /** Signed by its sender instead of a CSRF token (the Stripe webhook). */
  csrfExempt?: boolean;
  /** A JSON:API call that reads plain JSON too (spec 2 §7 change-language). */
  acceptsPlainJson?: boolean;
  /** The site the call is made on (a white-label host), else the main one. */
  host?: string;
};

/**
 * How many of a field's values a role is sent: all of them ('full'); a few ('thin': another
 * role of the same powers had them all); one ('touch': a role the page refuses before it reads
 * any field). Ids of someone else's are sent at every depth.
 */
export type Depth = 'full' | 'thin' | 'touch';
const DEPTH_VALUES: Record<Exclude<Depth, 'full'>, Set<string>> = {
  thin: new Set(['NUL', '100 kB string', '"abc"']),
  touch: new Set(['"abc"']),
};
const TEXT_IDS = new Set(['"0"', '"1e3"', '"abc"']);

export function valuesFor<R extends Role>(
  field: Field<R>,
  role: R,
  depth: Depth = 'full',
): Hostile[] {
  const json = field.in === 'json';
  const kind = field.kind;
  const nullable = field.nullable ?? false;
  let values: Hostile[];
  if (kind === 'ignored') values = [...BAD_TEXT];
  else if (kind === 'bounded') values = [...BAD_TEXT, ...LONG, ...notStrings(nullable)];
  else if (kind === 'choice' || kind === 'id') {
    values = [...BAD_TEXT, ...LONG, ...BAD_IDS, ...notStrings(nullable)];
  } else if (kind === 'text') {
    const ids = BAD_IDS.filter((value) => TEXT_IDS.has(value.name));
    values = [...BAD_TEXT, ...LONG, ...ids, ...notStrings(nullable)];
  } else if (kind === 'key') {
    const short = BAD_IDS.filter((value) => JSON.parse(value.json!.toString()).length < 8);
    values = [...BAD_TEXT, ...LONG, ...short, ...notStrings(nullable)];
  } else if (kind === 'jsonId') {
    values = [...BAD_TEXT, ...LONG, ...BAD_IDS, ...BAD_ID_NUMBERS, ...notNumbers(nullable)];
  } else {
    values = [
      ...BAD_TEXT,
      ...LONG,
      ...BAD_IDS,
      ...numbers(...kind.outside),
      ...notNumbers(nullable),
    ];
  }
  const theirs = (field.others?.(role) ?? []).map((id) =>
    othersId(kind === 'jsonId' ? Number(id) : String(id)),
  );
  const sent = depth === 'full' ? values : values.filter((v) => DEPTH_VALUES[depth].has(v.name));
  return [...sent, ...theirs].filter(
    (value) =>
      (json ? value.json !== null : value.url !== null) && !field.accepts?.includes(value.name),
  );
}

// ---------------------------------------------------------------------------------------------
// Requests.

export type Attempt = {
  label: string;
  role: Role;
  locale: Locale;
  url: string;
  init: RequestInit & { host?: string };
  /** The one status this request must get (the CSRF variants: 403), or the ones it may. */
  status?: number | number[];
};

export type Variant<R extends Role = Role> =
  | { kind: 'valid' }
  | { kind: 'field'; field: Field<R>; value: Hostile }
  | { kind: 'body'; body: 'empty' | 'malformed' | 'text/plain' | 'other type' }
  | { kind: 'csrf'; csrf: 'missing' | 'another session' | 'foreign origin' };

const PLACEHOLDER = '@@hostile@@';

function setAt(target: Record<string, unknown>, dotted: string, value: unknown) {
  const keys = dotted.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    node[key] = typeof node[key] === 'object' && node[key] !== null ? { ...node[key] } : {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys.at(-1)!] = value;
}

/**
 * One request of `call` as `role` in `locale`: its valid form with the variant applied.
 * `otherToken` is another session's CSRF token, for the "another session" variant.
 */
export function attemptOf<R extends Role>(
  call: Call<R>,
  role: R,
  locale: Locale,
  variant: Variant<R>,
  otherToken: string,
): Attempt {
  const valid = call.valid(role);
  const field = variant.kind === 'field' ? variant : null;
  const encoded = (name: string, where: Field['in'], value: string | number) =>
    field?.field.in === where && field.field.name === name
      ? field.value.url!
      : encodeURIComponent(String(value));

  let target = call.path.replace(/:(\w+)/g, (_, name: string) =>
    encoded(name, 'path', valid.path?.[name] ?? ''),
  );
  const query = { ...valid.query };
  if (field?.field.in === 'query' && !(field.field.name in query)) query[field.field.name] = '';
  const search = Object.entries(query)
    .map(([name, value]) => `${name}=${encoded(name, 'query', value)}`)
    .join('&');
  if (search) target += `?${search}`;

  const unsafe = call.method !== 'GET';
  const csrf = variant.kind === 'csrf' ? variant.csrf : null;
  const token = csrf === 'missing' ? null : csrf === 'another session' ? otherToken : role.token;
  const headers: Record<string, string> = {
    cookie: cookieHeader(role.cookies, locale),
    'accept-language': locale,
    accept: call.body === 'form' || !call.body ? 'text/html,application/xhtml+xml' : JSON_API,
  };
  if (call.body !== 'form' && call.path.startsWith('/api/')) headers.accept = JSON_API;
  if (csrf === 'foreign origin') headers.origin = FOREIGN_ORIGIN;

  let body: Buffer | null = null;
  if (call.body === 'form') {
    const form: Record<string, string | number> = { ...valid.form };
    if (field?.field.in === 'form' && !(field.field.name in form)) form[field.field.name] = '';
    const pairs = Object.entries(form).map(
      ([name, value]) => `${name}=${encoded(name, 'form', value)}`,
    );
    if (token !== null)
      pairs.unshift(`csrfmiddlewaretoken=${encoded('csrfmiddlewaretoken', 'form', token)}`);
    body = Buffer.from(pairs.join('&'));
    headers['content-type'] = FORM;
  } else if (call.body) {
    const document = structuredClone(valid.json) as Record<string, unknown>;
    if (field?.field.in === 'json') setAt(document, field.field.name, PLACEHOLDER);
    const [before, after = ''] = JSON.stringify(document).split(`"${PLACEHOLDER}"`);
    body = Buffer.concat([
      Buffer.from(before!),
      field?.field.in === 'json' ? field.value.json! : Buffer.alloc(0),
      Buffer.from(after),
    ]);
    headers['content-type'] = call.body === 'json' ? 'application/json' : JSON_API;
  }
  if (unsafe && call.body !== 'form' && token !== null) headers['x-csrftoken'] = token;

  if (variant.kind === 'body') {
    if (variant.body === 'empty') body = Buffer.alloc(0);
    if (variant.body === 'malformed') body = Buffer.from('{"data":{"type":');
    if (variant.body === 'text/plain') headers['content-type'] = 'text/plain';
    if (variant.body === 'other type') {
      // A form posted as JSON; a JSON:API call sent as plain JSON; JSON:API with a parameter
      // it does not have (JSON:API 1.1 allows only ext and profile).
      headers['content-type'] =
        call.body === 'form'
          ? 'application/json'
          : call.body === 'jsonapi' && !call.acceptsPlainJson
            ? 'application/json'
            : `${JSON_API}; charset=utf-8`;
    }
  }
  const what =
    variant.kind === 'valid'
      ? 'valid'
      : variant.kind === 'field'
        ? `${variant.field.name}=${variant.value.name}`
        : variant.kind === 'body'
          ? `body: ${variant.body}`
          : `CSRF: ${variant.csrf}`;
  const shown = target.length > 100 ? `${target.slice(0, 100)}…` : target;
  return {
    label: `${role.name} (${locale}) ${call.method} ${shown} [${what}]`,
    role,
    locale,
    url: `${base}${target}`,
    init: {
      method: call.method,
      redirect: 'manual',
      headers,
      body: body && body.length > 0 ? new Uint8Array(body) : body ? '' : undefined,
      host: call.host,
    },
    status: csrf ? 403 : undefined,
  };
}

/**
 * Every hostile variant of `call` for each role: each field's values (as many as `depth` says
 * for the role), bodies, CSRF.
 */
export function attemptsOf<R extends Role>(
  call: Call<R>,
  roles: R[],
  otherToken: (role: R) => string,
  depth: (role: R) => Depth = () => 'full',
): Attempt[] {
  const attempts: Attempt[] = [];
  for (const role of roles) {
    const variants: Variant<R>[] = [];
    const fields = [...call.fields];
    if (call.body === 'form') {
      fields.push({ in: 'form', name: 'csrfmiddlewaretoken', kind: 'choice' });
    }
    for (const field of fields) {
      for (const value of valuesFor(field, role, depth(role))) {
        variants.push({ kind: 'field', field, value });
      }
    }
    if (call.body) {
      if (!call.emptyBodyIsValid) variants.push({ kind: 'body', body: 'empty' });
      if (call.body !== 'form') variants.push({ kind: 'body', body: 'malformed' });
      variants.push({ kind: 'body', body: 'text/plain' }, { kind: 'body', body: 'other type' });
    }
    if (call.method !== 'GET' && !call.csrfExempt) {
      for (const csrf of ['missing', 'another session', 'foreign origin'] as const) {
        variants.push({ kind: 'csrf', csrf });
      }
    }
    // Half the calls ask in French: every role and field is seen in both languages.
    variants.forEach((variant, i) => {
      attempts.push(attemptOf(call, role, i % 2 === 0 ? 'en' : 'fr-CA', variant, otherToken(role)));
    });
  }
  return attempts;
}

// ---------------------------------------------------------------------------------------------
// What each answer must be.

const CATALOGUES: Record<Locale, Record<string, string>> = { en, 'fr-CA': frCA };
const patterns = new Map<string, RegExp>();

/** A catalogue message as a pattern: its arguments ({minutes}, plurals) match any text. */
function messagePattern(template: string): RegExp {
  let cached = patterns.get(template);
  if (cached) return cached;
  let source = '';
  let depth = 0;
  for (const char of template.replaceAll("''", "'")) {
    if (char === '{') {
      if (depth === 0) source += '[\\s\\S]*?';
      depth += 1;
    } else if (char === '}') {
      depth -= 1;
    } else if (depth === 0) {
      source += char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  cached = new RegExp(`^${source}$`);
  patterns.set(template, cached);
  return cached;
}

function isCatalogueText(locale: Locale, code: unknown, detail: unknown): boolean {
  if (typeof code !== 'string' || typeof detail !== 'string') return false;
  const template = CATALOGUES[locale][code];
  return template !== undefined && messagePattern(template).test(detail);
}

/** Why this answer is not in the language asked for, or null when it is. */
export function languageProblem(response: Response, text: string, locale: Locale): string | null {
  const status = response.status;
  if ((status >= 300 && status < 400) || status === 204) return null;
  const type = response.headers.get('content-type') ?? '';
  // A file asked for (notes exported, a book's pages kept offline): no words of ours in it.
  if (status < 300 && /^(text\/markdown|text\/csv|application\/pdf)\b/.test(type)) return null;
  if (type.includes('json')) {
    if (status < 400) return null;
    let error: { code?: unknown; detail?: unknown } | undefined;
    try {
      error = (JSON.parse(text) as { errors?: { code?: unknown; detail?: unknown }[] }).errors?.[0];
    } catch {
      return 'a JSON error that is not JSON';
    }
    if (isCatalogueText(locale, error?.code, error?.detail)) return null;
    return `detail ${JSON.stringify(error?.detail)} is not the ${locale} text of ${JSON.stringify(error?.code)}`;
  }
  if (type.startsWith('text/html')) {
    const lang = /<html[^>]*\slang="([^"]*)"/i.exec(text)?.[1];
    return lang === locale ? null : `a page in lang="${lang}"`;
  }
  if (type.startsWith('text/plain')) {
    const known = Object.values(CATALOGUES[locale]).includes(text);
    return known ? null : `plain text ${JSON.stringify(text.slice(0, 80))} not in ${locale}`;
  }
  return `an answer of type ${JSON.stringify(type)}`;
}

/** What is wrong with the answer to `attempt`, or null; `secrets` no answer may show. */
export async function check(
  attempt: Attempt,
  secrets: (role: Role) => string[] = () => [],
): Promise<string | null> {
  let response: Response;
  let text: string;
  try {
    response = await fetchAs(attempt.url, attempt.init);
    text = await response.text();
  } catch (error) {
    return `${attempt.label}: no answer (${(error as Error).cause ?? error})`;
  }
  const got = `got ${response.status}`;
  if (response.status >= 500) return `${attempt.label}: expected < 500, ${got}`;
  const statuses = attempt.status === undefined ? null : [attempt.status].flat();
  if (statuses && !statuses.includes(response.status)) {
    return `${attempt.label}: expected ${statuses.join(' or ')}, ${got}`;
  }
  const language = languageProblem(response, text, attempt.locale);
  if (language) return `${attempt.label}: expected ${attempt.locale}, ${got} with ${language}`;
  for (const secret of secrets(attempt.role)) {
    if (text.includes(secret)) return `${attempt.label}: shows ${JSON.stringify(secret)}`;
  }
  return null;
}

export async function checkAll(
  attempts: Attempt[],
  secrets?: (role: Role) => string[],
): Promise<string[]> {
  const problems: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < attempts.length) {
      const attempt = attempts[next++]!;
      const problem = await check(attempt, secrets);
      if (problem) problems.push(problem);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return problems.sort();
}

export type SnapshotRules = {
  /** Tables left out (each with why), rows that change on every request of their kind. */
  excluded: Record<string, string>;
  /** The columns digested, for tables whose other columns move on use, not on a write. */
  columns: Record<string, string>;
  /** A filter of the rows digested, for rows written by design whatever the input. */
  where: Record<string, string>;
};

/** A digest of every table a request may change (the rules' exclusions aside), by table. */
export async function snapshot(app: App, rules: SnapshotRules): Promise<Map<string, string>> {
  const tables = await queryRows<{ name: string }>(
    app.database.db,
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const parts = tables
    .filter(({ name }) => !(name in rules.excluded))
    .map(({ name }) => {
      const row = rules.columns[name] ? `(${rules.columns[name]})` : 't';
      const where = rules.where[name] ? ` where ${rules.where[name]}` : '';
      return `select '${name}' as name, md5(coalesce(string_agg(${row}::text, ',' order by ${row}::text), '')) as digest from "${name}" t${where}`;
    });
  const rows = await queryRows<{ name: string; digest: string }>(
    app.database.db,
    sql.raw(parts.join(' union all ')),
  );
  return new Map(rows.map((row) => [row.name, row.digest]));
}

export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after].filter(([name, digest]) => before.get(name) !== digest).map(([name]) => name);
}

export async function stillAnswers(): Promise<number> {
  const response = await fetch(`${base}/api/account/login`);
  await response.arrayBuffer();
  return response.status;
}
