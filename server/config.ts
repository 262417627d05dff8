import { z } from 'zod';

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
});

export type Config = z.infer<typeof schema> & { sessionSecret: string };

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
  return {
    ...config,
    // The embedded demo derives a stable secret so that sessions survive restarts.
    sessionSecret: config.SESSION_SECRET ?? `shelfmark-local-${config.DATA_DIR}`,
  };
}
