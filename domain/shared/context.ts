import type { Queryable } from '#db/client.ts';
import type { Locale } from '#domain/accounts/language.ts';
import type { SessionUser } from '#domain/accounts/types.ts';
import type { Site } from '#domain/sites/types.ts';
import type { Clock } from './clock.ts';

/** Built once per request by the adapter; every service takes it first (STYLE.md). */
export type RequestContext = {
  db: Queryable;
  site: Site;
  user: SessionUser | null;
  locale: Locale;
  requestId: string;
  ipAddress: string;
  /** The shopper's country (ISO 3166-1 alpha-2), from the CDN's header; US by default. */
  country: string;
  /** When the request began: what it shows and checks is as of this instant. */
  now: Date;
  /** The time as it passes: the instant a payment settled is read from it (decision 041). */
  clock: Clock;
  /** Keys from configuration (never from the source in production, decision 011). */
  keys: { accessCodes: string; lti: string };
  /** What posting an order costs, in integer cents (SHIPPING_RATE_CENTS; 0 is free). */
  shippingRateCents: number;
};
