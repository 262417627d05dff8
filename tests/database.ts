import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { type DatabaseHandle, openDatabase, type Queryable } from '#db/client.ts';
import { TestGateway } from '#domain/commerce/test-gateway.ts';
import { type BookFileStore, diskFileStore } from '#domain/reading/service.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { defaultSite } from '#domain/sites/service.ts';
import type { WebContext } from '#server/load-context.ts';
import { createLogger } from '#server/logger.ts';

/** A migrated database for one test file: PGlite from the template, or the CI server. */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  if (process.env.DATABASE_URL) return openDatabase({ url: process.env.DATABASE_URL, poolSize: 5 });
  const template = inject('pgliteTemplate');
  return openDatabase({ loadDataDir: new Blob([readFileSync(template)]) });
}

/** The access-code key of every test context (ACCESS_CODE_KEY in a server). */
export const TEST_ACCESS_CODE_KEY = 'test-access-code-key';

let counter = 0;
/** A value no other test (or earlier run on the same server) uses. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

/** A request context for service tests: an anonymous English visitor on the main site. */
export function testContext(
  db: Queryable,
  overrides: Partial<RequestContext> = {},
): RequestContext {
  const now = overrides.now ?? new Date();
  return {
    db,
    site: defaultSite('localhost'),
    user: null,
    locale: 'en',
    requestId: 'test',
    ipAddress: unique('ip'),
    country: 'US',
    now,
    // Time stands at `now` unless a test gives a clock that moves (decision 041).
    clock: () => now,
    keys: { accessCodes: TEST_ACCESS_CODE_KEY, lti: 'test-lti-key' },
    shippingRateCents: 0,
    ...overrides,
  };
}

/** The same request context as of another instant, its clock standing there too. */
export function contextAt(ctx: RequestContext, now: Date): RequestContext {
  return { ...ctx, now, clock: () => now };
}

/** What the API adapter gets for a request, around testContext (no session, no cookies). */
export function testWebContext(
  database: DatabaseHandle,
  overrides: Partial<RequestContext> = {},
  bookFiles: BookFileStore = diskFileStore('./data'),
): WebContext {
  const rc = testContext(database.db, overrides);
  return {
    rc,
    catalogRc: { ...rc, db: database.catalogDb },
    log: createLogger('silent'),
    scriptHashes: [],
    documentRequest: false,
    streamedUpload: false,
    serverOnly: new Map(),
    matchedRoute: { pattern: null },
    publicPage: null,
    csrfToken: 'token',
    sessionToken: null,
    userAgent: null,
    anonymousKey: null,
    readerOf: null,
    secureCookies: false,
    isDevelopment: false,
    loopbackIdentityProviders: true,
    database,
    catalogImportDatabase: async () => database,
    gateway: new TestGateway(database.db),
    browserPayments: { gateway: 'test' },
    bookFiles,
    vitalsourceUrl: null,
    orderRetentionYears: 7,
    seller: { addressLines: [], email: null },
  };
}
