import { STRIPE_WEBHOOK_PATH } from '#api/payments/webhooks.ts';

// Unsafe requests that hold no session and so no CSRF token: their sender signs each one
// instead, and the handler checks that signature before it changes anything (decision 007).
// Exact paths only: nothing below them and no other spelling is exempt.
// Courseware launch (decision 017): the tool's authentication request and the demo tool's
// endpoints are posted by another site's page, checked by state, nonce, signature or hint.
const LAUNCH_PATHS = [
  '/lti1p3/link/launch',
  '/demo-tool/lti13/login',
  '/demo-tool/lti13/launch',
  '/demo-tool/lti11/launch',
].flatMap((path) => [path, `${path}/`]);
// Campus sign-in (issue 20): the SAML IdP posts its signed answer from its own site; node-saml
// checks the signature, audience, time and InResponseTo (our stored request id) instead.
const CAMPUS_PATHS = ['/accounts/campus/saml/acs', '/accounts/campus/saml/acs/'];
const EXEMPT_PATHS: ReadonlySet<string> = new Set([
  STRIPE_WEBHOOK_PATH,
  ...LAUNCH_PATHS,
  ...CAMPUS_PATHS,
]);

export function isCsrfExempt(pathname: string): boolean {
  return EXEMPT_PATHS.has(pathname);
}
