import type { DatabaseHandle } from '#db/client.ts';
import type { BrowserPayments, PaymentGateway } from '#domain/commerce/payment-gateway.ts';
import type { BookFileStore } from '#domain/reading/service.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import type { PersonalRecipe } from '#web/utils/personal-recipe.ts';
import type { Logger } from './logger.ts';

export const SESSION_COOKIE = 'sid';
export const ANON_COOKIE = 'anon';
/** Whose books this browser keeps for reading offline (issue 16): the reader's user id. */
export const READER_COOKIE = 'reader_of';
export const LANG_COOKIE = 'LANG';

/** What the adapters (pages and API) get for each request, built once by the server. */
export type WebContext = {
  rc: RequestContext;
  /**
   * The same request, for the public catalog's reads only (products, search, categories,
   * covers, sitemaps): its `db` is the read replica (DATABASE_READ_URL, issue 40) while it
   * answers, else the primary. A replica lags: whatever depends on what a user has written
   * (session, cart, orders, shelf, opting, reading) and every write go through `rc`.
   */
  catalogRc: RequestContext;
  log: Logger;
  /** CSP hashes of the inline scripts of the page rendered for this request. */
  scriptHashes: string[];
  /** Other origins this response's forms may post to (a courseware launch, decision 017). */
  formActions?: string[];
  /** A request for a page's document, not for a route's data (React Router's `.data` URLs). */
  documentRequest: boolean;
  /**
   * The edge streamed this request's files to disk (its path is an upload path, server/edge.ts):
   * only then is an upload field the edge's. React Router also matches the page by other
   * spellings of its path ('/.data', a capital, a trailing slash), whose forms come as sent.
   */
  streamedUpload: boolean;
  /** What a loader gives the server's rendering and not the browser (web/utils/server-only.ts). */
  serverOnly: Map<string, unknown>;
  /**
   * The route pattern React Router matched ('/product/:slug'), noted by the instrumentation in
   * server/route-pattern.ts when a loader or action runs; the metrics label by it (issue 40).
   */
  matchedRoute: { pattern: string | null };
  /**
   * Set by a loader whose page anonymous visitors may share: the products it shows, and how a
   * logged-in visitor's page is composed from it, if it may be (decision 043).
   */
  publicPage: { productIds: Set<number>; personal: PersonalRecipe | null } | null;
  csrfToken: string;
  sessionToken: string | null;
  /** The request's User-Agent (cut to 512 characters), for the signed-in devices list. */
  userAgent: string | null;
  /** The anonymous visitor's cookie value (their cart's key), when they have one. */
  anonymousKey: string | null;
  /** The reader whose books this browser keeps for reading offline, if any (READER_COOKIE). */
  readerOf: number | null;
  secureCookies: boolean;
  isDevelopment: boolean;
  /**
   * Campus sign-in settings may name an identity provider on 127.0.0.1 over plain http: outside
   * production, or a test deployment (PAYMENTS=test), as DEV_CAMPUS_IDP_PORT (decision 023).
   */
  loopbackIdentityProviders: boolean;
  database: DatabaseHandle;
  /** Where an Admin page import writes: the same database, through background connections. */
  catalogImportDatabase: () => Promise<DatabaseHandle>;
  /** The payment gateway of this process (test gateway, or Stripe when configured). */
  gateway: PaymentGateway;
  /** What the browser needs to pay through that gateway (Stripe.js's publishable key). */
  browserPayments: BrowserPayments;
  /**
   * Book files (the reader, downloads, publishers' covers), under DATA_DIR or in the configured
   * S3-compatible bucket (decision 026); their paths never leave the server.
   */
  bookFiles: BookFileStore;
  /** VITALSOURCE_URL: 'Go To VitalSource' of a site without an address of its own. */
  vitalsourceUrl: string | null;
  /** ORDER_RETENTION_YEARS: how long a deleted account's orders are kept (issue 20). */
  orderRetentionYears: number;
  /** STORE_ADDRESS and STORE_EMAIL: the seller on receipts (issue 20). */
  seller: { addressLines: string[]; email: string | null };
};

declare module 'react-router' {
  interface AppLoadContext extends WebContext {}
}
