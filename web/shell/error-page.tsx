import { lazy } from 'react';
import { hydratedOnDemand } from '#web/utils/hydrated-on-demand.tsx';

/**
 * The error page's content (GeneralErrorBoundary) for the shell's error boundaries: rendered
 * by the server at once, its code downloaded by the browser only on an error page (issue 13,
 * the JavaScript budget; web/utils/hydrated-on-demand.tsx).
 */
export const ErrorPage = hydratedOnDemand(
  import.meta.env.SSR
    ? (await import('#web/components/general-error-boundary.tsx')).GeneralErrorBoundary
    : lazy(() =>
        import('#web/components/general-error-boundary.tsx').then((module) => ({
          default: module.GeneralErrorBoundary,
        })),
      ),
);
