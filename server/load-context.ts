import type { DatabaseHandle } from '#db/client.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import type { Logger } from './logger.ts';

export const SESSION_COOKIE = 'sid';
export const ANON_COOKIE = 'anon';
export const LANG_COOKIE = 'LANG';

/** What the adapters (pages and API) get for each request, built once by the server. */
export type WebContext = {
  rc: RequestContext;
  log: Logger;
  nonce: string;
  csrfToken: string;
  sessionToken: string | null;
  secureCookies: boolean;
  isDevelopment: boolean;
  database: DatabaseHandle;
};

declare module 'react-router' {
  interface AppLoadContext extends WebContext {}
}
