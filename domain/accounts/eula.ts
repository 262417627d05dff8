// spec 1 §2 (Routes) and spec 2 §4: a logged-in user who must accept the EULA goes to
// /account/eula?next= with the current path and query, except on the exempt partner host.
export const EULA_PATH = '/account/eula';

const EXEMPT_PREFIXES = [
  EULA_PATH,
  '/accounts/login',
  '/ajax/logout',
  '/api/',
  '/assets/',
  '/covers/',
];

export function eulaRedirect(input: {
  loggedIn: boolean;
  mustAcceptEula: boolean;
  siteExempt: boolean;
  pathAndQuery: string;
}): string | null {
  if (!input.loggedIn || !input.mustAcceptEula || input.siteExempt) return null;
  if (EXEMPT_PREFIXES.some((p) => input.pathAndQuery.startsWith(p))) return null;
  return `${EULA_PATH}?next=${encodeURIComponent(input.pathAndQuery)}`;
}
