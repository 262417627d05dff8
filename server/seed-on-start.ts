import path from 'node:path';
import type { DatabaseHandle } from '#db/client.ts';
import { isDatabaseEmpty, seedDemo } from '#db/seed/demo.ts';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';

const SEED_LOCK_KEY = 7_310_002;

/**
 * The embedded database is seeded with the demo on first start; a PostgreSQL server only when
 * DEMO_DATA=on, so a production database starts with no demo accounts (issue 2 §3).
 */
export async function seedDemoIfWanted(
  database: DatabaseHandle,
  config: Config,
  log: Logger,
): Promise<void> {
  // In production the demo (accounts with a known password) comes only with test payments.
  const wanted =
    config.DEMO_DATA === 'on' ||
    (config.DEMO_DATA === 'auto' && database.kind === 'pglite' && config.demoAllowed);
  if (!wanted) return;
  await database.withLock(SEED_LOCK_KEY, async (db) => {
    if (!(await isDatabaseEmpty(db))) return;
    log.info('empty database: seeding the demo catalog and accounts');
    const started = Date.now();
    await seedDemo(
      { ...database, db },
      {
        dataDir: path.resolve(config.DATA_DIR),
        log: (line) => log.info(line),
        accessCodeKey: config.accessCodeKey,
        ltiKey: config.ltiKey,
      },
    );
    log.info({ ms: Date.now() - started }, 'demo seeded');
  });
}
