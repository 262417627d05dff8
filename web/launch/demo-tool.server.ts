import { randomBytes } from 'node:crypto';
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import { DEMO_TOOL, oauthSignatureRefusal, shortRole } from '#domain/access/demo-tool.ts';
import { isLocale, type Locale } from '#domain/accounts/language.ts';
import { translate } from '#i18n/translate.ts';
import { parseCookies, serializeCookie } from '#server/cookies.ts';
import { escapeHtml } from './auto-post.server.ts';

// The demo tool's side of a launch (domain/access/demo-tool.ts): what an outside LTI tool
// does, on our own server so that a fresh clone launches somewhere real.

const STATE_COOKIE = 'demo_tool_lti';
const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
/** Nonces seen by this process: the demo tool refuses a replayed launch. */
const seenNonces = new Map<string, number>();

function remember(nonce: string): boolean {
  const now = Date.now();
  for (const [value, at] of seenNonces) if (now - at > 3_600_000) seenNonces.delete(value);
  if (seenNonces.has(nonce)) return false;
  seenNonces.set(nonce, now);
  return true;
}

function localeOf(value: unknown): Locale {
  return typeof value === 'string' && isLocale(value) ? value : 'en';
}

function toolPage(locale: Locale, status: number, body: string): Response {
  const title = translate(locale, 'demoTool.title');
  return new Response(
    `<!DOCTYPE html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
    {
      status,
      headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
    },
  );
}

/**
 * The tool refuses: it says why and sends the user back to the platform's return URL with
 * `lti_errormsg` (LTI launch presentation), so that Shelfmark tells them too and records it.
 * A return URL is followed only when it is the platform's own return page.
 */
function refused(locale: Locale, reason: string, request: Request, returnUrl?: unknown): Response {
  const origin = new URL(request.url).origin;
  const ours = typeof returnUrl === 'string' && returnUrl.startsWith(`${origin}/lti/return/?`);
  const back = new URL(ours ? returnUrl : `${origin}/lti/return/`);
  back.searchParams.set('lti_errormsg', reason);
  return toolPage(
    locale,
    401,
    `<p role="alert">${escapeHtml(translate(locale, 'demoTool.refused', { reason }))}</p><p><a href="${escapeHtml(back.toString())}">${escapeHtml(translate(locale, 'demoTool.back'))}</a></p>`,
  );
}

/** What an id_token says before it is verified: only to find where to send the user back. */
function unverifiedReturnUrl(idToken: unknown): unknown {
  try {
    const payload = JSON.parse(
      Buffer.from(String(idToken).split('.')[1] ?? '', 'base64url').toString('utf8'),
    ) as Record<string, { return_url?: unknown } | undefined>;
    return payload[`${CLAIM}launch_presentation`]?.return_url;
  } catch {
    return undefined;
  }
}

function welcome(
  locale: Locale,
  input: {
    name: string;
    role: string;
    section: string | null;
    resource: string;
    verified: string;
    returnUrl: string | null;
  },
): Response {
  const section = input.section ?? translate(locale, 'demoTool.noSection');
  const back =
    input.returnUrl && /^https?:\/\//.test(input.returnUrl) ? input.returnUrl : '/shelf/';
  return toolPage(
    locale,
    200,
    `<p id="welcome">${escapeHtml(translate(locale, 'demoTool.welcome', { name: input.name, role: input.role, section }))}</p><p>${escapeHtml(translate(locale, 'demoTool.resource', { title: input.resource }))}</p><p>${escapeHtml(input.verified)}</p><p><a href="${escapeHtml(back)}">${escapeHtml(translate(locale, 'demoTool.back'))}</a></p>`,
  );
}

/** LTI 1.3 login initiation: checks who is asking, then the authentication request. */
export function demoLogin(request: Request, values: URLSearchParams | FormData): Response {
  const get = (name: string) => {
    const value = values.get(name);
    return typeof value === 'string' ? value : '';
  };
  const origin = new URL(request.url).origin;
  if (get('iss') !== origin || get('client_id') !== DEMO_TOOL.clientId) {
    return refused('en', 'unknown platform or client', request);
  }
  if (get('target_link_uri') !== `${origin}${DEMO_TOOL.launchPath13}` || !get('login_hint')) {
    return refused('en', 'unexpected login initiation', request);
  }
  const state = randomBytes(16).toString('base64url');
  const nonce = randomBytes(16).toString('base64url');
  const auth = new URL('/lti1p3/link/launch/', origin);
  for (const [name, value] of Object.entries({
    scope: 'openid',
    response_type: 'id_token',
    response_mode: 'form_post',
    prompt: 'none',
    client_id: DEMO_TOOL.clientId,
    redirect_uri: `${origin}${DEMO_TOOL.launchPath13}`,
    login_hint: get('login_hint'),
    lti_message_hint: get('lti_message_hint'),
    state,
    nonce,
  })) {
    auth.searchParams.set(name, value);
  }
  return new Response(null, {
    status: 302,
    headers: {
      Location: auth.toString(),
      'Set-Cookie': serializeCookie(STATE_COOKIE, `${state}.${nonce}`, {
        path: '/demo-tool/',
        maxAgeSeconds: 600,
        secure: origin.startsWith('https:'),
      }),
    },
  });
}

/** LTI 1.3 launch: the id_token checked against the platform's JWKS, its nonce and state. */
export async function demoLaunch13(request: Request, form: FormData): Promise<Response> {
  const origin = new URL(request.url).origin;
  const idToken = form.get('id_token');
  const state = form.get('state');
  const [expectedState, nonce] = (
    parseCookies(request.headers.get('cookie')).get(STATE_COOKIE) ?? ''
  ).split('.');
  if (typeof idToken !== 'string' || typeof state !== 'string')
    return refused('en', 'no id_token', request);
  if (!expectedState || state !== expectedState)
    return refused('en', 'state does not match', request, unverifiedReturnUrl(idToken));
  let payload: JWTPayload;
  let kid: string;
  try {
    const verified = await jwtVerify(idToken, createRemoteJWKSet(new URL('/lti1p3/jwks', origin)), {
      issuer: origin,
      audience: DEMO_TOOL.clientId,
      algorithms: ['RS256'],
    });
    payload = verified.payload;
    kid = verified.protectedHeader.kid ?? '';
  } catch (error) {
    return refused(
      'en',
      `id_token: ${(error as Error).message}`,
      request,
      unverifiedReturnUrl(idToken),
    );
  }
  const claim = (name: string) =>
    payload[`${CLAIM}${name}`] as Record<string, unknown> | string | undefined;
  const presentation = (claim('launch_presentation') ?? {}) as Record<string, unknown>;
  const locale = localeOf(presentation.locale ?? payload.locale);
  if (payload.nonce !== nonce || !remember(String(payload.nonce)))
    return refused(locale, 'nonce replayed or wrong', request, presentation.return_url);
  if (
    claim('message_type') !== 'LtiResourceLinkRequest' ||
    claim('version') !== '1.3.0' ||
    claim('deployment_id') !== DEMO_TOOL.deploymentId
  ) {
    return refused(
      locale,
      'not a resource-link launch for this deployment',
      request,
      presentation.return_url,
    );
  }
  const context = claim('context') as { label?: string; title?: string } | undefined;
  const link = (claim('resource_link') ?? {}) as { title?: string; id?: string };
  return welcome(locale, {
    name: String(payload.name ?? payload.sub),
    role: shortRole((payload[`${CLAIM}roles`] as string[] | undefined) ?? []),
    section: context ? `${context.label} — ${context.title}` : null,
    resource: link.title ?? link.id ?? '',
    verified: translate(locale, 'demoTool.verified13', { kid }),
    returnUrl: typeof presentation.return_url === 'string' ? presentation.return_url : null,
  });
}

/** LTI 1.1 launch: the OAuth 1.0a signature checked with the tool's own code and secret. */
export function demoLaunch11(request: Request, form: FormData, now: Date): Response {
  const fields = [...form.entries()].filter((e): e is [string, string] => typeof e[1] === 'string');
  const get = (name: string) => fields.find(([n]) => n === name)?.[1] ?? '';
  const locale = localeOf(get('launch_presentation_locale'));
  const refusal = oauthSignatureRefusal(request.url, fields, DEMO_TOOL.secret, now);
  const returnUrl = get('launch_presentation_return_url');
  if (refusal) return refused(locale, refusal, request, returnUrl);
  if (!remember(`1.1:${get('oauth_nonce')}`))
    return refused(locale, 'nonce replayed', request, returnUrl);
  if (get('lti_message_type') !== 'basic-lti-launch-request')
    return refused(locale, 'message type', request, returnUrl);
  return welcome(locale, {
    name: get('lis_person_name_full') || get('user_id'),
    role: shortRole(get('roles').split(',')),
    section: get('context_id') ? `${get('context_label')} — ${get('context_title')}` : null,
    resource: get('resource_link_title') || get('resource_link_id'),
    verified: translate(locale, 'demoTool.verified11'),
    returnUrl: get('launch_presentation_return_url') || null,
  });
}
