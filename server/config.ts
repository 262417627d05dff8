import { z } from 'zod';
import type { StripeSettings } from '#domain/commerce/stripe-gateway.ts';

// Configuration is parsed once at start; every bad variable is reported by name.
const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_READ_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  // auto: seed the demo into an empty embedded database; on/off force it.
  DEMO_DATA: z.enum(['auto', 'on', 'off']).default('auto'),
  SESSION_SECRET: z.string().min(16).optional(),
  SMTP_URL: z.string().url().optional(),
  PUBLIC_ORIGIN: z.string().url().optional(),
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
  // A request's line and headers must all arrive within this time (slowloris).
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(10_000),
  // A body may pause this long between two pieces, and take this long in all.
  BODY_IDLE_TIMEOUT_MS: z.coerce.number().int().min(500).max(600_000).default(10_000),
  BODY_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(30_000),
  // An idle keep-alive connection is closed after this (above a load balancer's 60 s).
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(65_000),
  MAX_HEADER_BYTES: z.coerce.number().int().min(4096).max(65_536).default(16_384),
  MAX_CONNECTIONS: z.coerce.number().int().min(10).max(1_000_000).default(10_000),
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

export type Config = z.infer<typeof schema> & {
  sessionSecret: string;
  /** Stripe when configured; null means the built-in test gateway takes payments. */
  stripe: StripeSettings | null;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (config.NODE_ENV === 'production' && config.DATABASE_URL && !config.SESSION_SECRET) {
    throw new Error(
      'Invalid configuration:\n  SESSION_SECRET: required in production on PostgreSQL',
    );
  }
  const stripe = stripeSettings(config);
  if (Array.isArray(stripe)) throw new Error(`Invalid configuration:\n${stripe.join('\n')}`);
  return {
    ...config,
    // The embedded demo derives a stable secret so that sessions survive restarts.
    sessionSecret: config.SESSION_SECRET ?? `shelfmark-local-${config.DATA_DIR}`,
    stripe,
  };
}
