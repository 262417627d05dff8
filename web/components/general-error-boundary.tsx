import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import type { Locale } from '#domain/accounts/language.ts';
import type { MessageParams } from '#i18n/format-message.ts';
import { SearchBox } from '#web/components/search-box.tsx';
import { hasMessage } from '#web/i18n/catalog.ts';
import { useLocale, useRootData, useT } from '#web/i18n/use-t.ts';

// spec 2 §8 / §2: 404 'Sorry, that page doesn't exist.', 403 'Sorry, you can't access this
// page.', others 'Sorry, we have encountered an error.'; each offers an action to the shelf.
// A domain error (withDomainErrors) carries its own message key: that message says more,
// e.g. 'This book cannot be added for free.' instead of the generic 400.
// Issue 19: a visitor who is not signed in gets, on the 404 page, a search box and a link
// home instead of the shelf (which would only ask them to log in).
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const t = useT();
  const locale = useLocale();
  const root = useRootData();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const specific = isRouteErrorResponse(error) ? specificMessage(error.data, locale, t) : null;
  // The store's title pattern, as every page's meta writes it: "Forbidden | Shelfmark".
  const pageTitle = (page: string) =>
    t('error.pageTitle', { page, title: root?.site.title ?? 'Shelfmark' });
  if (status === 404 && !root?.user) {
    return (
      <section className="error-page stack">
        <title>{pageTitle(t('error.notFound.title'))}</title>
        <h1>{specific ?? t('error.notFound')}</h1>
        {root?.site.showSearch === false ? null : (
          <div className="error-page__search stack-sm">
            <p>{t('error.notFound.search')}</p>
            <SearchBox id="not-found-search" />
          </div>
        )}
        <p className="cluster">
          <Link to="/" className="button button--primary">
            {t('error.goHome')}
          </Link>
        </p>
      </section>
    );
  }
  const { title, message, action } =
    status === 404
      ? {
          title: t('error.notFound.title'),
          message: t('error.notFound'),
          action: t('error.goToShelf'),
        }
      : status === 403
        ? {
            title: t('error.forbidden.title'),
            message: t('error.forbidden'),
            action: t('error.goToShelf'),
          }
        : status === 400
          ? { title: t('error.title'), message: t('error.invalid'), action: t('error.backToShelf') }
          : {
              title: t('error.title'),
              message: t('error.heading'),
              action: t('error.backToShelf'),
            };
  const back = isRouteErrorResponse(error) && specific ? wayBack(error.data) : null;
  return (
    <section className="error-page">
      <title>{pageTitle(title)}</title>
      <h1>{specific ?? message}</h1>
      <p className="cluster">
        {back ? (
          <Link to={back.to} className="button button--primary">
            {t(back.label)}
          </Link>
        ) : null}
        <Link to="/shelf" className={back ? 'button button--secondary' : 'button button--primary'}>
          {action}
        </Link>
      </p>
    </section>
  );
}

/**
 * The way back a refusal names (domain/access/entitlement.ts, issue 14): opting back in on
 * the course page before the deadline, or the product page to buy it.
 */
function wayBack(data: unknown): { to: string; label: string } | null {
  if (typeof data !== 'object' || data === null || !('params' in data)) return null;
  const params = data.params as Record<string, unknown> | null;
  const id = (value: unknown) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
  if (params?.wayBack === 'optBackIn' && id(params.sectionId)) {
    return {
      to: `/shelf/course-section/${id(params.sectionId)}`,
      label: 'access.wayBack.optBackIn',
    };
  }
  if (params?.wayBack === 'verifyEmail') {
    return { to: '/account/verify-email', label: 'verify.wayBack' };
  }
  if (params?.wayBack === 'buy' && id(params.productId)) {
    return { to: `/product-detail/${id(params.productId)}`, label: 'access.wayBack.buy' };
  }
  return null;
}

/** The translated message of thrown `{ messageKey, params }`, if the catalog has that key. */
function specificMessage(
  data: unknown,
  locale: Locale,
  t: (id: string, params?: MessageParams) => string,
): string | null {
  if (typeof data !== 'object' || data === null || !('messageKey' in data)) return null;
  const { messageKey } = data;
  if (typeof messageKey !== 'string' || !hasMessage(locale, messageKey)) return null;
  const params: MessageParams = {};
  if ('params' in data && typeof data.params === 'object' && data.params !== null) {
    for (const [name, value] of Object.entries(data.params)) {
      if (typeof value === 'string' || typeof value === 'number') params[name] = value;
    }
  }
  try {
    return t(messageKey, params);
  } catch {
    // A message whose parameters did not come along: the status's own text is still true.
    return null;
  }
}
