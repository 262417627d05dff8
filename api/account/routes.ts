import { changeLanguage, navigationFlags } from '#domain/accounts/service.ts';
import { isEcommerceShown } from '#domain/sites/site-rules.ts';
import { languageCookie } from '#server/cookies.ts';
import type { WebContext } from '#server/load-context.ts';
import { apiError, jsonApi, readJson } from '../errors.ts';
import { changeLanguageBody } from './validators.ts';

/** GET /api/account/login: login status (spec 1 §3 Login; spec 2 §7). */
export function loginStatus(context: WebContext): Response {
  const { user, site, locale } = context.rc;
  return jsonApi({
    data: {
      type: 'Login',
      id: 'me',
      attributes: {
        isLoggedIn: !!user,
        csrfToken: context.csrfToken,
        mustAcceptEula: user?.mustAcceptEula ?? false,
        enabledFeatures: { ecommerce: isEcommerceShown(site), myShelf: site.myShelfEnabled },
        navigationInfo: {
          languageCode: locale,
          allowedLanguageCodes: site.allowedLanguages,
          hasCookies: true,
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
