import { describe, expect, it } from 'vitest';
import { applySecurityHeaders, contentSecurityPolicy } from './security-headers.ts';

const HASH = "'sha256-bWFkZSB1cCBmb3IgdGhlIHRlc3QgLSBub3QgYSByZWFsIGhhc2g='";

/** The CSP as directive name → sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

function headersFor(stripe: boolean, development = false): Headers {
  const headers = new Headers();
  applySecurityHeaders(headers, { scriptHashes: [HASH], production: true, development, stripe });
  return headers;
}

describe('Content-Security-Policy (decision 007)', () => {
  it('with the test gateway: our origin and the page’s inline-script hashes, nothing of Stripe', () => {
    const policy = headersFor(false).get('Content-Security-Policy')!;
    expect(policy).toBe(
      [
        "default-src 'self'",
        `script-src 'self' ${HASH}`,
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'self'",
        "form-action 'self'",
        "base-uri 'self'",
        "object-src 'none'",
      ].join('; '),
    );
    expect(policy).not.toContain('stripe');
    expect(headersFor(false).get('Permissions-Policy')).toBe(
      'camera=(), microphone=(), geolocation=(), payment=(self)',
    );
  });

  it('with Stripe: Stripe.js’s script, frame and API hosts are added, the hashes stay', () => {
    const csp = directives(headersFor(true).get('Content-Security-Policy')!);
    expect(csp.get('script-src')).toEqual([
      "'self'",
      HASH,
      'https://js.stripe.com',
      'https://*.js.stripe.com',
    ]);
    expect(csp.get('frame-src')).toEqual([
      "'self'",
      'https://js.stripe.com',
      'https://*.js.stripe.com',
      'https://hooks.stripe.com',
    ]);
    expect(csp.get('connect-src')).toEqual(["'self'", 'https://api.stripe.com']);
    // Nothing else opens up: no inline scripts without a hash, no other host anywhere.
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
    for (const name of ['default-src', 'img-src', 'style-src', 'font-src', 'form-action']) {
      expect(csp.get(name)!.some((source) => source.includes('stripe'))).toBe(false);
    }
    expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
  });

  it('with Stripe: the wallet frame may use the Payment Request API (Apple Pay, Google Pay)', () => {
    expect(headersFor(true).get('Permissions-Policy')).toBe(
      'camera=(), microphone=(), geolocation=(), payment=(self "https://js.stripe.com")',
    );
  });

  it('in development the dev server’s eval and websockets come before Stripe’s hosts', () => {
    const csp = directives(
      contentSecurityPolicy({ scriptHashes: [], development: true, stripe: true }),
    );
    expect(csp.get('script-src')).toEqual([
      "'self'",
      "'unsafe-eval'",
      'https://js.stripe.com',
      'https://*.js.stripe.com',
    ]);
    expect(csp.get('connect-src')).toEqual(["'self'", 'ws:', 'wss:', 'https://api.stripe.com']);
  });

  it("issue 16: a response with a stricter policy of its own keeps it, the site's beside it", () => {
    const headers = new Headers({ 'Content-Security-Policy': "default-src 'none'; sandbox" });
    applySecurityHeaders(headers, {
      scriptHashes: [],
      production: false,
      development: false,
      stripe: false,
    });
    const [own, site] = headers.get('Content-Security-Policy')!.split(', ');
    expect(own).toBe("default-src 'none'; sandbox");
    expect(site).toBe(
      contentSecurityPolicy({ scriptHashes: [], development: false, stripe: false }),
    );
  });

  it('HSTS only in production over HTTPS', () => {
    expect(headersFor(true).get('Strict-Transport-Security')).toContain('max-age=');
    const headers = new Headers();
    applySecurityHeaders(headers, {
      scriptHashes: [],
      production: false,
      development: false,
      stripe: true,
    });
    expect(headers.get('Strict-Transport-Security')).toBeNull();
  });
});

describe('the Content-Security-Policy form-action', () => {
  const formAction = (formActions?: string[]) =>
    directives(
      contentSecurityPolicy({ scriptHashes: [], development: false, stripe: false, formActions }),
    ).get('form-action');

  it('allows our own origin only, by default', () => {
    expect(formAction()).toEqual(["'self'"]);
  });

  it('adds the bookstore partners’ stores for the hand-off form (spec 2 §7)', () => {
    expect(formAction(['https://store.example.edu'])).toEqual([
      "'self'",
      'https://store.example.edu',
    ]);
  });
});
