import { changeLanguage, navigationFlags } from '#domain/accounts/service.ts';
import { MERGER_FLAG } from '#domain/sites/merger.ts';
import { enabledFeatureFlags } from '#domain/sites/service.ts';
import { isEcommerceShown } from '#domain/sites/site-rules.ts';
import { languageCookie, parseCookies } from '#server/cookies.ts';
import { ANON_COOKIE, LANG_COOKIE, SESSION_COOKIE, type WebContext } from '#server/load-context.ts';
import { apiError, jsonApi, readJson } from '../errors.ts';
import { changeLanguageBody } from './validators.ts';

/**
 * spec 1 §3 Login, navigationInfo.hasCookies: the browser sent back a cookie we set (the
 * session, the visitor's key or the language). A browser that refuses cookies never does; a
 * new one has none on its first call, whose answer sets the visitor's key (the CSRF token
 * below is bound to it), so its next call says true.
 */
function hasOurCookies(request: Request): boolean {
  const cookies = parseCookies(request.headers.get('cookie'));
  return [SESSION_COOKIE, ANON_COOKIE, LANG_COOKIE].some((name) => cookies.has(name));
}

/** GET /api/account/login: login status (spec 1 §3 Login; spec 2 §7). */
export async function loginStatus(request: Request, context: WebContext): Promise<Response> {
  const { user, site, locale } = context.rc;
  const flags = await enabledFeatureFlags(context.rc.db);
  return jsonApi({
    data: {
      type: 'Login',
      id: 'me',
      attributes: {
        isLoggedIn: !!user,
        csrfToken: context.csrfToken,
        mustAcceptEula: user?.mustAcceptEula ?? false,
        enabledFeatures: {
          ecommerce: isEcommerceShown(site),
          myShelf: site.myShelfEnabled,
          merger: flags.has(MERGER_FLAG),
        },
        navigationInfo: {
          languageCode: locale,
          allowedLanguageCodes: site.allowedLanguages,
          hasCookies: hasOurCookies(request),
          ...(user ? navigationFlags(user, site) : {}),
        },
      },
      relationships: user ? { user: { data: { type: 'User', id: String(user.id) } } } : {},
    },
    included: user
      ? [
          {
            type: 'User',
            id: String(user.id),
            attributes: { email: user.email, firstName: user.firstName, lastName: user.lastName },
          },
        ]
      : [],
  });
}

/** POST /api/account/user/me/change-language (spec 2 §7). */
export async function postChangeLanguage(request: Request, context: WebContext): Promise<Response> {
  const parsed = changeLanguageBody.safeParse(await readJson(request));
  if (!parsed.success) return apiError(context, 400, 'language.error.unsupported');
  const language =
    'language' in parsed.data ? parsed.data.language : parsed.data.data.attributes.language;
  const stored = await changeLanguage(context.rc, language);
  return jsonApi(
    { data: { type: 'Language', id: stored, attributes: { code: stored } } },
    {
      headers: {
        'Set-Cookie': languageCookie(stored, context.secureCookies),
      },
    },
  );
}
