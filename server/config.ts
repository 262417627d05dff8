import { z } from 'zod';
import { DEFAULT_ORDER_RETENTION_YEARS } from '#domain/accounts/account-deletion.ts';
import type { StripeSettings } from '#domain/commerce/stripe-gateway.ts';
import { parseTrustedProxies } from './client-address.ts';
import type { S3FileStoreSettings } from './s3-file-store.ts';

// Book files in an S3-compatible bucket (issue 15, decision 026) instead of the data directory.
// The credentials are the SDK's own (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, a profile or a
// role); the region may be AWS_REGION, as the SDK reads it.
const BOOK_FILES_S3_FIELDS = {
  BOOK_FILES_S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/, 'a bucket name (3 to 63 a-z, 0-9, ".", "-")')
    .optional(),
  BOOK_FILES_S3_ENDPOINT: z
    .string()
    .url()
    .regex(
      /^https?:\/\/[^/?#\s]+\/?$/,
      'an http or https origin with no path (https://s3.example.com)',
    )
    .optional(),
  BOOK_FILES_S3_REGION: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/i, 'a region name (us-east-1)')
    .optional(),
  BOOK_FILES_S3_PREFIX: z
    .string()
    .refine(
      (value) =>
        !/[\\\0]/.test(value) &&
        value
          .replace(/\/$/, '')
          .split('/')
          .every((s) => s !== '' && s !== '.' && s !== '..'),
      'folders separated by "/" (shelfmark/books), no leading "/", ".", "..", empty ones or "\\"',
    )
    .optional(),
  BOOK_FILES_S3_FORCE_PATH_STYLE: z.enum(['true', 'false', '1', '0']).optional(),
  AWS_REGION: z.string().optional(),
};
const BOOK_FILES_S3_NAMES = [
  'BOOK_FILES_S3_ENDPOINT',
  'BOOK_FILES_S3_REGION',
  'BOOK_FILES_S3_PREFIX',
  'BOOK_FILES_S3_FORCE_PATH_STYLE',
] as const;
/** S3-compatible services do not care for a region; the SDK still signs with one. */
const ANY_REGION = 'us-east-1';

/**
 * The most server processes one machine runs (WEB_CONCURRENCY, issue 40): each holds its own
 * pool of DATABASE_POOL_SIZE connections and its own page cache, so past this many a machine
 * runs out of database connections or memory before it runs out of cores.
 */
export const MAX_WEB_CONCURRENCY = 64;

// Configuration is parsed once at start; every bad variable is reported by name.
const schema = z.object({
  ...BOOK_FILES_S3_FIELDS,
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  // Issue 40: a PostgreSQL streaming replica of DATABASE_URL for the public catalog's reads
  // (db/read-replica.ts, docs/scaling.md), with a pool as large as the primary's.
  DATABASE_READ_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  // auto: seed the demo into an empty embedded database; on/off force it.
  DEMO_DATA: z.enum(['auto', 'on', 'off']).default('auto'),
  // Keys that sign or encrypt (decision 011): required and strong in production.
  SESSION_SECRET: z.string().min(16).optional(),
  ACCESS_CODE_KEY: z.string().min(16).optional(),
  // Courseware launch (issue 14, decision 017): encrypts the LTI 1.1 secrets and the platform's
  // signing keys at rest, and keys the pseudonymous LTI `sub`.
  LTI_KEY: z.string().min(16).optional(),
  // 'test': the built-in test gateway takes payments (test cards). Production refuses it
  // unless said here, and every page then says "Test mode".
  PAYMENTS: z.enum(['test']).optional(),
  SMTP_URL: z.string().url().optional(),
  // Issue 40 (decision 042): a scraper presents it as `Authorization: Bearer …` to read
  // GET /metrics; unset, only a client on this machine (not through a proxy) may.
  METRICS_TOKEN: z.string().min(16).optional(),
  PUBLIC_ORIGIN: z.string().url().optional(),
  // Issue 40: the reverse proxies in front (deploy/nginx), by address, separated by commas;
  // from them alone X-Forwarded-For names the visitor (server/client-address.ts).
  TRUSTED_PROXIES: z.string().optional(),
  // Issue 38: what posting an order that ships costs, in integer cents, once per order; 0
  // (the default) says "Free" on the checkout and the receipt.
  SHIPPING_RATE_CENTS: z.coerce.number().int().min(0).max(100_000).default(0),
  // Where the merger modal's 'Go To VitalSource' leads (spec 1 §1) when a site has no
  // address of its own (a white label's vsRedirectUrl); unset, the modal does not open.
  VITALSOURCE_URL: z
    .string()
    .url()
    .regex(/^https?:\/\//, 'an http or https address')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEFAULT_HOST: z.string().default('localhost'),
  // Rendered anonymous pages kept per process (0 turns the page cache off).
  PAGE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(64),
  PAGE_CACHE_TTL_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  // Stripe (decision 007): all three keys or none; without them the built-in test gateway.
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'a secret or restricted key (sk_test_…, sk_live_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\S+$/, "the webhook endpoint's signing secret (whsec_…)")
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_\w+$/, 'a publishable key (pk_test_…, pk_live_…)')
    .optional(),
  // Only for contract tests against a local stand-in for Stripe's API.
  STRIPE_API_BASE: z.string().url().optional(),
  // The edge (server/edge.ts, docs/edge.md): what one request may send, and for how long.
  // Form posts to pages; JSON:API bodies; Stripe's webhook events.
  FORM_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(100_000_000).default(1_000_000),
  API_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(100_000_000).default(100_000),
  WEBHOOK_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(100_000_000).default(1_000_000),
  // A manager's upload on the Admin page (issue 15: an ONIX feed and book files), streamed to
  // the data directory, never held in memory; and how long it may take.
  UPLOAD_LIMIT_BYTES: z.coerce.number().int().min(1024).max(20_000_000_000).default(2_000_000_000),
  UPLOAD_TIMEOUT_MS: z.coerce.number().int().min(1000).max(86_400_000).default(3_600_000),
  // A request's line and headers must all arrive within this time (slowloris).
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(10_000),
  // A body may pause this long between two pieces, and take this long in all.
  BODY_IDLE_TIMEOUT_MS: z.coerce.number().int().min(500).max(600_000).default(10_000),
  BODY_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(30_000),
  // An idle keep-alive connection is closed after this (above a load balancer's 60 s).
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(65_000),
  MAX_HEADER_BYTES: z.coerce.number().int().min(4096).max(65_536).default(16_384),
  MAX_CONNECTIONS: z.coerce.number().int().min(10).max(1_000_000).default(10_000),
  // Graceful shutdown (issue 40, server/shutdown.ts): from SIGTERM to a forced exit (under an
  // orchestrator's own grace period: Kubernetes waits 30 s), and how long the process keeps
  // serving, not ready, before it stops accepting (a balancer polling /readyz needs its check
  // interval × its fall count to take it out).
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(25_000),
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(300_000).default(0),
  // Issue 40: how many server processes `npm run serve` runs on PostgreSQL (server/cluster.ts,
  // docs/scaling.md); unset, one per core. The embedded database is one process, whatever this
  // says (a larger number without DATABASE_URL is refused below).
  WEB_CONCURRENCY: z.coerce
    .number()
    .int(`a whole number of processes from 1 to ${MAX_WEB_CONCURRENCY}`)
    .min(1, `a whole number of processes from 1 to ${MAX_WEB_CONCURRENCY}`)
    .max(MAX_WEB_CONCURRENCY, `a whole number of processes from 1 to ${MAX_WEB_CONCURRENCY}`)
    .optional(),
  // Campus sign-in (issue 20, decision 023): runs the local test OpenID provider of the demo
  // campus on 127.0.0.1:<port>. Outside production only, or a test deployment (PAYMENTS=test).
  DEV_CAMPUS_IDP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  // The seller on every receipt (issue 20): its postal address, lines separated by '|', and
  // the address where buyers write about an order. Receipts show the store's name and site
  // without them.
  STORE_ADDRESS: z.string().trim().max(500).optional(),
  STORE_EMAIL: z.string().trim().email().max(254).optional(),
  // PostgreSQL connections per app process (issue 37). With several processes behind a load
  // balancer, processes × DATABASE_POOL_SIZE (+ 2 each for catalog imports and 1 for
  // notifications) must stay below the server's max_connections (100 by default): 20 suits
  // four processes. A request that finds every connection busy waits up to
  // DATABASE_POOL_WAIT_MS, then is answered 503 with Retry-After (overload, not an error).
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(20),
  DATABASE_POOL_WAIT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  // Requests one process works on at once (issue 40, decision 044, server/admission.ts); more
  // wait their turn in three lanes: a checkout first, then pages, then a log in. Stored
  // anonymous pages and static files never wait.
  MAX_ACTIVE_REQUESTS: z.coerce.number().int().min(1).max(10_000).default(20),
  // A database query of a request taking longer than this fails (PostgreSQL; 0 = no limit).
  DATABASE_QUERY_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(15_000),
  // Orders and payments of a deleted account are kept this long, without personal data
  // (issue 20, domain/accounts/account-deletion.ts), then purged by the order sweeper.
  ORDER_RETENTION_YEARS: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(DEFAULT_ORDER_RETENTION_YEARS),
});

const STRIPE_KEYS = [
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_PUBLISHABLE_KEY',
] as const;

/** Stripe's settings when configured, or the reasons the Stripe variables do not fit together. */
function stripeSettings(config: z.infer<typeof schema>): StripeSettings | null | string[] {
  const missing = STRIPE_KEYS.filter((name) => !config[name]);
  if (missing.length === STRIPE_KEYS.length) {
    return config.STRIPE_API_BASE ? ['  STRIPE_API_BASE: set without the Stripe keys'] : null;
  }
  if (missing.length > 0) {
    return missing.map((name) => `  ${name}: required with the other Stripe keys`);
  }
  const secretKey = config.STRIPE_SECRET_KEY!;
  const publishableKey = config.STRIPE_PUBLISHABLE_KEY!;
  // A test key with a live one charges nobody and fails in the browser: say so at start.
  if (secretKey.includes('_live_') !== publishableKey.includes('_live_')) {
    return ['  STRIPE_PUBLISHABLE_KEY: test and live keys are mixed'];
  }
  return {
    secretKey,
    webhookSecret: config.STRIPE_WEBHOOK_SECRET!,
    publishableKey,
    apiBase: config.STRIPE_API_BASE,
  };
}

/** The bucket's settings when BOOK_FILES_S3_BUCKET is set, or why the variables do not fit. */
function s3Settings(
  config: z.infer<z.ZodObject<typeof BOOK_FILES_S3_FIELDS>>,
): S3FileStoreSettings | null | string[] {
  const bucket = config.BOOK_FILES_S3_BUCKET;
  if (!bucket) {
    const strays = BOOK_FILES_S3_NAMES.filter((name) => config[name] !== undefined);
    return strays.length === 0
      ? null
      : strays.map((name) => `  ${name}: set without BOOK_FILES_S3_BUCKET`);
  }
  const endpoint = config.BOOK_FILES_S3_ENDPOINT?.replace(/\/$/, '');
  const region = config.BOOK_FILES_S3_REGION ?? config.AWS_REGION ?? (endpoint ? ANY_REGION : null);
  if (!region) {
    return ['  BOOK_FILES_S3_REGION: required with BOOK_FILES_S3_BUCKET on AWS (or AWS_REGION)'];
  }
  const prefix = config.BOOK_FILES_S3_PREFIX?.replace(/\/$/, '');
  return {
    bucket,
    region,
    endpoint,
    prefix: prefix ? `${prefix}/` : '',
    forcePathStyle: ['true', '1'].includes(config.BOOK_FILES_S3_FORCE_PATH_STYLE ?? ''),
  };
}

/**
 * Where book files go (issue 15), read from the environment on its own: for the command-line
 * tools that keep files but need none of the server's other settings (npm run catalog:import).
 * Null is the data directory. A bad variable stops the tool, named as at the server's start.
 */
export function loadBookFilesS3(env: NodeJS.ProcessEnv = process.env): S3FileStoreSettings | null {
  const parsed = z.object(BOOK_FILES_S3_FIELDS).safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const settings = s3Settings(parsed.data);
  if (Array.isArray(settings)) throw new Error(`Invalid configuration:\n${settings.join('\n')}`);
  return settings;
}

export type Config = z.infer<typeof schema> & {
  sessionSecret: string;
  /** Key of the access-code digests (HMAC-SHA256): codes are never stored whole. */
  accessCodeKey: string;
  /** Key of the courseware-launch secrets at rest and of the LTI `sub` (decision 017). */
  ltiKey: string;
  /** The built-in test gateway takes payments: pages say "Test mode". */
  testPayments: boolean;
  /** Demo data may be seeded: not in production with live Stripe keys. */
  demoAllowed: boolean;
  /** Stripe when configured; null means the built-in test gateway takes payments. */
  stripe: StripeSettings | null;
  /** BOOK_FILES_S3_*: the bucket that keeps book files; null means the data directory. */
  bookFilesS3: S3FileStoreSettings | null;
  /** TRUSTED_PROXIES: whose X-Forwarded-For is believed (server/client-address.ts). */
  trustedProxies: string[];
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  const stripe = stripeSettings(config);
  if (Array.isArray(stripe)) throw new Error(`Invalid configuration:\n${stripe.join('\n')}`);
  const production = config.NODE_ENV === 'production';
  const problems = production ? productionProblems(config, stripe !== null) : [];
  const bookFilesS3 = s3Settings(config);
  if (Array.isArray(bookFilesS3)) problems.push(...bookFilesS3);
  // Issue 40: a replica of the embedded database does not exist; a read URL alone would be
  // ignored, and the operator would believe the catalog's reads went to it.
  if (config.DATABASE_READ_URL && !config.DATABASE_URL) {
    problems.push(
      '  DATABASE_READ_URL: a read replica needs its primary in DATABASE_URL (PostgreSQL); the embedded database has none',
    );
  }
  if (config.PAYMENTS === 'test' && stripe) {
    problems.push('  PAYMENTS: "test" together with the Stripe keys; choose one');
  }
  const proxies = parseTrustedProxies(config.TRUSTED_PROXIES);
  for (const entry of proxies.invalid) {
    problems.push(`  TRUSTED_PROXIES: "${entry}" is not an IP address`);
  }
  if (problems.length > 0) throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  return {
    ...config,
    // Outside production (development, tests) a local key, stable per data directory, so
    // sessions survive restarts; production never gets here without its own (above).
    sessionSecret: config.SESSION_SECRET ?? `shelfmark-local-${config.DATA_DIR}`,
    accessCodeKey: config.ACCESS_CODE_KEY ?? 'shelfmark-local-access-codes',
    ltiKey: config.LTI_KEY ?? `shelfmark-local-lti-${config.DATA_DIR}`,
    testPayments: stripe === null,
    demoAllowed: !production || !liveMoney(config),
    stripe,
    bookFilesS3: Array.isArray(bookFilesS3) ? null : bookFilesS3,
    trustedProxies: proxies.addresses,
  };
}

/** Live Stripe keys: real money, so no demo accounts. */
function liveMoney(config: z.infer<typeof schema>): boolean {
  return (config.STRIPE_SECRET_KEY ?? '').includes('_live_');
}

/** Fragments of the placeholders people copy from examples: such a key is no secret. */
const PLACEHOLDERS = ['change', 'example', 'secret', 'password', 'default', 'shelfmark', 'demo'];

/** Why a key is too weak to sign or encrypt with, or null. */
export function weakKeyReason(value: string): string | null {
  if (value.length < 32) return 'at least 32 characters';
  if (new Set(value).size < 12) return 'too few different characters';
  const lower = value.toLowerCase();
  const placeholder = PLACEHOLDERS.find((word) => lower.includes(word));
  if (placeholder) return `looks like a placeholder ("${placeholder}")`;
  return null;
}

/**
 * Production refuses what only a demo may do (issue 13): the test gateway unless PAYMENTS=test,
 * demo accounts (known passwords) unless PAYMENTS=test too, missing, weak or shared keys, and
 * a missing public origin (issue 37).
 * Each problem names its variable.
 */
function productionProblems(config: z.infer<typeof schema>, stripe: boolean): string[] {
  const problems: string[] = [];
  if (!stripe && config.PAYMENTS !== 'test') {
    problems.push(
      '  STRIPE_SECRET_KEY: required in production (with STRIPE_WEBHOOK_SECRET and STRIPE_PUBLISHABLE_KEY); set PAYMENTS=test only for a test deployment that takes test cards',
    );
  }
  if (config.DEMO_DATA === 'on' && liveMoney(config)) {
    problems.push(
      '  DEMO_DATA: demo accounts (known passwords) in production only with test payments (PAYMENTS=test or Stripe test keys)',
    );
  }
  if (config.DEV_CAMPUS_IDP_PORT && config.PAYMENTS !== 'test') {
    problems.push(
      '  DEV_CAMPUS_IDP_PORT: the local test identity provider (known passwords) is refused in production; only a test deployment (PAYMENTS=test) may run it',
    );
  }
  // Issue 37: without it, mail links lead to http://localhost:PORT, the session cookie lacks
  // Secure and no HSTS is sent behind a TLS proxy.
  if (!config.PUBLIC_ORIGIN) {
    problems.push(
      '  PUBLIC_ORIGIN: required in production: the address people reach the store at (https://store.example.edu), for mail links, Secure cookies and HSTS',
    );
  }
  for (const name of ['SESSION_SECRET', 'ACCESS_CODE_KEY', 'LTI_KEY'] as const) {
    const value = config[name];
    const reason = value ? weakKeyReason(value) : 'required in production';
    if (reason) problems.push(`  ${name}: ${reason}`);
  }
  // Issue 40: more than one process needs a database more than one process may open.
  if ((config.WEB_CONCURRENCY ?? 1) > 1) {
    if (!config.DATABASE_URL) {
      problems.push(
        '  WEB_CONCURRENCY: more than one process needs PostgreSQL (DATABASE_URL); the embedded database is opened by one process only',
      );
    } else if (config.DEV_CAMPUS_IDP_PORT) {
      problems.push(
        '  WEB_CONCURRENCY: the local test identity provider (DEV_CAMPUS_IDP_PORT) keeps its sign-ins in one process; set WEB_CONCURRENCY=1 or leave it unset',
      );
    }
  }
  if (config.SESSION_SECRET && config.SESSION_SECRET === config.ACCESS_CODE_KEY) {
    problems.push('  ACCESS_CODE_KEY: must differ from SESSION_SECRET');
  }
  if (
    config.LTI_KEY &&
    (config.LTI_KEY === config.SESSION_SECRET || config.LTI_KEY === config.ACCESS_CODE_KEY)
  ) {
    problems.push('  LTI_KEY: must differ from SESSION_SECRET and ACCESS_CODE_KEY');
  }
  return problems;
}
