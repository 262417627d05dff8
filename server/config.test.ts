import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadBookFilesS3, loadConfig } from './config.ts';

const keys = {
  STRIPE_SECRET_KEY: 'sk_test_51Config000000000000000000000000',
  STRIPE_WEBHOOK_SECRET: 'whsec_config_1a2b3c4d5e6f',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_51Config000000000000000000000000',
};

// Decision 007: Stripe takes payments when its three keys are set; otherwise the test gateway.
describe('Stripe configuration', () => {
  it('none of the keys: no Stripe, the built-in test gateway', () => {
    expect(loadConfig({}).stripe).toBeNull();
  });

  it('all three keys: Stripe, at its own API unless STRIPE_API_BASE says otherwise', () => {
    expect(loadConfig(keys).stripe).toEqual({
      secretKey: keys.STRIPE_SECRET_KEY,
      webhookSecret: keys.STRIPE_WEBHOOK_SECRET,
      publishableKey: keys.STRIPE_PUBLISHABLE_KEY,
      apiBase: undefined,
    });
    const local = loadConfig({ ...keys, STRIPE_API_BASE: 'http://127.0.0.1:12111' });
    expect(local.stripe?.apiBase).toBe('http://127.0.0.1:12111');
  });

  it('some keys but not all stops the start and names each missing one', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: keys.STRIPE_SECRET_KEY })).toThrow(
      /STRIPE_WEBHOOK_SECRET: required[\s\S]*STRIPE_PUBLISHABLE_KEY: required/,
    );
    expect(() => loadConfig({ STRIPE_API_BASE: 'http://127.0.0.1:12111' })).toThrow(
      /STRIPE_API_BASE/,
    );
  });

  it('keys of the wrong kind, or test and live keys mixed, stop the start', () => {
    expect(() => loadConfig({ ...keys, STRIPE_SECRET_KEY: keys.STRIPE_PUBLISHABLE_KEY })).toThrow(
      /STRIPE_SECRET_KEY/,
    );
    expect(() => loadConfig({ ...keys, STRIPE_WEBHOOK_SECRET: 'secret' })).toThrow(
      /STRIPE_WEBHOOK_SECRET/,
    );
    expect(() =>
      loadConfig({ ...keys, STRIPE_PUBLISHABLE_KEY: 'pk_live_51Config0000000000000000000000' }),
    ).toThrow(/test and live keys are mixed/);
  });
});

// Issue 13 "Money and secrets": production refuses what only a demo may do, naming each variable.
describe('production configuration', () => {
  const strong = () => randomBytes(32).toString('base64url');
  const production = (env: NodeJS.ProcessEnv = {}) => ({
    NODE_ENV: 'production',
    SESSION_SECRET: strong(),
    ACCESS_CODE_KEY: strong(),
    LTI_KEY: strong(),
    PUBLIC_ORIGIN: 'https://store.example.edu',
    ...env,
  });

  // Issue 37: without its public origin, mails link to localhost and cookies lack Secure.
  it('without PUBLIC_ORIGIN the start is refused, naming it; with it, the store starts', () => {
    expect(() => loadConfig(production({ PAYMENTS: 'test', PUBLIC_ORIGIN: undefined }))).toThrow(
      /PUBLIC_ORIGIN: required in production/,
    );
    expect(loadConfig(production({ PAYMENTS: 'test' })).PUBLIC_ORIGIN).toBe(
      'https://store.example.edu',
    );
    // Outside production the store runs without it (a developer's machine).
    expect(loadConfig({ NODE_ENV: 'development' }).PUBLIC_ORIGIN).toBeUndefined();
  });

  it('without Stripe keys and without PAYMENTS=test the start is refused, naming the keys', () => {
    expect(() => loadConfig(production())).toThrow(/STRIPE_SECRET_KEY: required in production/);
  });

  it('PAYMENTS=test takes test payments; Stripe keys take real ones', () => {
    expect(loadConfig(production({ PAYMENTS: 'test' })).testPayments).toBe(true);
    const live = loadConfig(production(keys));
    expect(live.testPayments).toBe(false);
    expect(live.stripe).not.toBeNull();
    expect(() => loadConfig(production({ ...keys, PAYMENTS: 'test' }))).toThrow(/PAYMENTS/);
  });

  it('no key is derived or defaulted: both are required, whatever the database', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', PAYMENTS: 'test', ACCESS_CODE_KEY: strong() }),
    ).toThrow(/SESSION_SECRET: required in production/);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', PAYMENTS: 'test', SESSION_SECRET: strong() }),
    ).toThrow(/ACCESS_CODE_KEY: required in production/);
  });

  it.each([
    ['short', 'aB3$dE6&gH9*jK2mN5pQ8r'],
    ['repetitive', 'abababababababababababababababababab'],
    ['a placeholder', 'change-me-to-a-long-random-value-0123456789'],
  ])('a %s key is refused with its name', (_kind, value) => {
    expect(() => loadConfig(production({ PAYMENTS: 'test', SESSION_SECRET: value }))).toThrow(
      /SESSION_SECRET: (at least 32|too few|looks like a placeholder)/,
    );
  });

  // Issue 14 (courseware launch): LTI_KEY like the others, required in production only.
  it('LTI_KEY is required in production, derived only outside it, and differs from the others', () => {
    expect(() => loadConfig(production({ PAYMENTS: 'test', LTI_KEY: undefined }))).toThrow(
      /LTI_KEY: required in production/,
    );
    const key = strong();
    expect(() =>
      loadConfig(production({ PAYMENTS: 'test', ACCESS_CODE_KEY: key, LTI_KEY: key })),
    ).toThrow(/LTI_KEY: must differ/);
    expect(loadConfig({ NODE_ENV: 'test', DATA_DIR: './x' }).ltiKey).toBe(
      'shelfmark-local-lti-./x',
    );
    expect(loadConfig(production({ PAYMENTS: 'test', LTI_KEY: key })).ltiKey).toBe(key);
  });

  // Issue 20: the demo campus's local OpenID provider (known passwords) never runs in production.
  it('DEV_CAMPUS_IDP_PORT is refused in production, but for a test deployment', () => {
    const liveKeys = {
      STRIPE_SECRET_KEY: 'sk_live_51Config000000000000000000000000',
      STRIPE_WEBHOOK_SECRET: 'whsec_config_1a2b3c4d5e6f',
      STRIPE_PUBLISHABLE_KEY: 'pk_live_51Config000000000000000000000000',
    };
    expect(() => loadConfig(production({ ...liveKeys, DEV_CAMPUS_IDP_PORT: '3011' }))).toThrow(
      /DEV_CAMPUS_IDP_PORT: the local test identity provider .* is refused in production/,
    );
    expect(
      loadConfig(production({ PAYMENTS: 'test', DEV_CAMPUS_IDP_PORT: '3011' })).DEV_CAMPUS_IDP_PORT,
    ).toBe(3011);
    expect(loadConfig({ DEV_CAMPUS_IDP_PORT: '3011' }).DEV_CAMPUS_IDP_PORT).toBe(3011);
  });

  it('the same value for both keys is refused', () => {
    const key = strong();
    expect(() =>
      loadConfig(production({ PAYMENTS: 'test', SESSION_SECRET: key, ACCESS_CODE_KEY: key })),
    ).toThrow(/ACCESS_CODE_KEY: must differ/);
  });

  it('demo accounts only with test payments: refused with live Stripe keys', () => {
    const liveKeys = {
      STRIPE_SECRET_KEY: 'sk_live_51Config000000000000000000000000',
      STRIPE_WEBHOOK_SECRET: keys.STRIPE_WEBHOOK_SECRET,
      STRIPE_PUBLISHABLE_KEY: 'pk_live_51Config000000000000000000000000',
    };
    expect(() => loadConfig(production({ ...liveKeys, DEMO_DATA: 'on' }))).toThrow(/DEMO_DATA/);
    expect(loadConfig(production(liveKeys)).demoAllowed).toBe(false);
    expect(loadConfig(production({ ...keys, DEMO_DATA: 'on' })).demoAllowed).toBe(true);
    expect(loadConfig(production({ PAYMENTS: 'test', DEMO_DATA: 'on' })).demoAllowed).toBe(true);
  });

  it('outside production a local key keeps the demo and the tests running', () => {
    const local = loadConfig({ DATA_DIR: './data' });
    expect(local.sessionSecret).toBeTruthy();
    expect(local.testPayments).toBe(true);
  });
});

describe('VITALSOURCE_URL (spec 1 §1, the merger modal)', () => {
  it('is an http or https address, and optional', () => {
    expect(loadConfig({}).VITALSOURCE_URL).toBeUndefined();
    expect(loadConfig({ VITALSOURCE_URL: 'https://example.com/x' }).VITALSOURCE_URL).toBe(
      'https://example.com/x',
    );
    expect(() => loadConfig({ VITALSOURCE_URL: 'javascript:alert(1)' })).toThrow(/VITALSOURCE_URL/);
  });
});

// Issue 20: a deleted account's orders and payments are kept for a retention period set here.
describe('ORDER_RETENTION_YEARS', () => {
  it('issue 20: seven years unless set; a number of whole years, or the start stops naming it', () => {
    expect(loadConfig({}).ORDER_RETENTION_YEARS).toBe(7);
    expect(loadConfig({ ORDER_RETENTION_YEARS: '10' }).ORDER_RETENTION_YEARS).toBe(10);
    for (const bad of ['0', 'seven', '2.5']) {
      expect(() => loadConfig({ ORDER_RETENTION_YEARS: bad })).toThrow(/ORDER_RETENTION_YEARS/);
    }
  });
});

// Issue 15: book files in an S3-compatible bucket by configuration (decision 026), else the
// data directory; variables that do not fit together stop the start, each named.
describe('BOOK_FILES_S3_* (issue 15, decision 026)', () => {
  const bucket = { BOOK_FILES_S3_BUCKET: 'shelfmark-books' };

  it('no bucket: the data directory keeps the book files', () => {
    expect(loadConfig({}).bookFilesS3).toBeNull();
    expect(loadBookFilesS3({})).toBeNull();
  });

  it('a bucket on AWS takes its region from BOOK_FILES_S3_REGION or AWS_REGION', () => {
    expect(loadConfig({ ...bucket, BOOK_FILES_S3_REGION: 'eu-west-3' }).bookFilesS3).toEqual({
      bucket: 'shelfmark-books',
      region: 'eu-west-3',
      endpoint: undefined,
      prefix: '',
      forcePathStyle: false,
    });
    expect(loadConfig({ ...bucket, AWS_REGION: 'ca-central-1' }).bookFilesS3?.region).toBe(
      'ca-central-1',
    );
    expect(() => loadConfig(bucket)).toThrow(
      /BOOK_FILES_S3_REGION: required with BOOK_FILES_S3_BUCKET on AWS/,
    );
  });

  it('an S3-compatible service: its endpoint, path-style addresses, a prefix ending in /', () => {
    const settings = loadConfig({
      ...bucket,
      BOOK_FILES_S3_ENDPOINT: 'http://127.0.0.1:9000/',
      BOOK_FILES_S3_FORCE_PATH_STYLE: 'true',
      BOOK_FILES_S3_PREFIX: 'campus/books',
    }).bookFilesS3;
    expect(settings).toEqual({
      bucket: 'shelfmark-books',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      prefix: 'campus/books/',
      forcePathStyle: true,
    });
    expect(
      loadConfig({
        ...bucket,
        BOOK_FILES_S3_ENDPOINT: 'https://s3.example.com',
        BOOK_FILES_S3_PREFIX: 'x/',
      }).bookFilesS3?.prefix,
    ).toBe('x/');
  });

  it('any other BOOK_FILES_S3_ variable without the bucket stops the start, naming it', () => {
    expect(() => loadConfig({ BOOK_FILES_S3_ENDPOINT: 'https://s3.example.com' })).toThrow(
      /BOOK_FILES_S3_ENDPOINT: set without BOOK_FILES_S3_BUCKET/,
    );
    expect(() =>
      loadConfig({ BOOK_FILES_S3_REGION: 'eu-west-3', BOOK_FILES_S3_PREFIX: 'books' }),
    ).toThrow(
      /BOOK_FILES_S3_REGION: set without BOOK_FILES_S3_BUCKET[\s\S]*BOOK_FILES_S3_PREFIX: set without/,
    );
    expect(() => loadBookFilesS3({ BOOK_FILES_S3_FORCE_PATH_STYLE: 'true' })).toThrow(
      /BOOK_FILES_S3_FORCE_PATH_STYLE: set without BOOK_FILES_S3_BUCKET/,
    );
  });

  it.each([
    ['BOOK_FILES_S3_BUCKET', 'Not_A Bucket'],
    ['BOOK_FILES_S3_BUCKET', 'ab'],
    ['BOOK_FILES_S3_ENDPOINT', 'not a url'],
    ['BOOK_FILES_S3_ENDPOINT', 'ftp://s3.example.com'],
    ['BOOK_FILES_S3_ENDPOINT', 'https://s3.example.com/some/path'],
    ['BOOK_FILES_S3_REGION', 'eu west'],
    ['BOOK_FILES_S3_PREFIX', '/books'],
    ['BOOK_FILES_S3_PREFIX', 'books/../other'],
    ['BOOK_FILES_S3_PREFIX', 'books//x'],
    ['BOOK_FILES_S3_FORCE_PATH_STYLE', 'yes'],
  ])('%s=%j is refused by name, at the server and in the import tool', (name, value) => {
    const env = { ...bucket, BOOK_FILES_S3_REGION: 'eu-west-3', [name]: value };
    expect(() => loadConfig(env)).toThrow(new RegExp(`${name}: `));
    expect(() => loadBookFilesS3(env)).toThrow(new RegExp(`${name}: `));
  });

  it('the import tool reads the same settings as the server', () => {
    const env = {
      ...bucket,
      BOOK_FILES_S3_ENDPOINT: 'https://s3.example.com',
      BOOK_FILES_S3_PREFIX: 'p',
    };
    expect(loadBookFilesS3(env)).toEqual(loadConfig(env).bookFilesS3);
  });
});

// Issue 40: whose X-Forwarded-For is believed (server/client-address.ts).
describe('TRUSTED_PROXIES', () => {
  it('unset trusts nobody; a list of addresses is read; anything else stops the start', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: '127.0.0.1, 10.0.0.5' }).trustedProxies).toEqual([
      '127.0.0.1',
      '10.0.0.5',
    ]);
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8' })).toThrow(
      /TRUSTED_PROXIES: "10.0.0.0\/8" is not an IP address/,
    );
  });
});

describe('DATABASE_READ_URL (issue 40, read replica)', () => {
  const primary = 'postgres://shelfmark@db.example.edu:5432/shelfmark';
  const replica = 'postgres://shelfmark@replica.example.edu:5432/shelfmark';

  it('needs DATABASE_URL: alone it stops the start, naming it, in production or not', () => {
    for (const NODE_ENV of ['development', 'production']) {
      expect(() =>
        loadConfig({
          NODE_ENV,
          DATABASE_READ_URL: replica,
          PAYMENTS: 'test',
          PUBLIC_ORIGIN: 'https://store.example.edu',
          SESSION_SECRET: randomBytes(32).toString('base64url'),
          ACCESS_CODE_KEY: randomBytes(32).toString('base64url'),
          LTI_KEY: randomBytes(32).toString('base64url'),
        }),
      ).toThrow(/DATABASE_READ_URL: a read replica needs its primary in DATABASE_URL/);
    }
  });

  it('with DATABASE_URL it is taken as given; unset there is no replica', () => {
    const config = loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: replica });
    expect(config.DATABASE_READ_URL).toBe(replica);
    expect(loadConfig({ DATABASE_URL: primary }).DATABASE_READ_URL).toBeUndefined();
    expect(() => loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'replica' })).toThrow(
      /DATABASE_READ_URL: /,
    );
  });
});
