import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { useT } from '#web/i18n/use-t.ts';

// spec 2 §8 / §2: 404 'Sorry, that page doesn't exist.', 403 'Sorry, you can't access this
// page.', others 'Sorry, we have encountered an error.'; each offers an action to the shelf.
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const t = useT();
  const status = isRouteErrorResponse(error) ? error.status : 500;
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
  return (
    <section className="error-page">
      <title>{title}</title>
      <h1>{message}</h1>
      <p>
        <Link to="/shelf" className="button button--primary">
          {action}
        </Link>
      </p>
    </section>
  );
}
