import { type ComponentType, memo, Suspense } from 'react';

/**
 * A part of the page the server renders in place but whose code the browser downloads only
 * on the pages that have it (issue 13, the JavaScript budget): a white label's category
 * navbar, the merger banner. The browser hydrates it once its chunk has arrived; meanwhile
 * React keeps the server's HTML (a Suspense boundary that suspends while hydrating shows what
 * the server sent). The boundary is memoised: a render of its parent before it has hydrated
 * would otherwise make React throw the server's HTML away and render it again.
 *
 * `Component` is the module's component on the server and React.lazy of it in the browser,
 * chosen at the call site so that the browser's build keeps only the dynamic import:
 *
 *   const Nav = hydratedOnDemand(
 *     import.meta.env.SSR
 *       ? (await import('./nav.tsx')).Nav
 *       : lazy(() => import('./nav.tsx').then((m) => ({ default: m.Nav }))),
 *   );
 */
export function hydratedOnDemand<P extends object>(Component: ComponentType<P>) {
  return memo(function HydratedOnDemand(props: P) {
    return (
      <Suspense fallback={null}>
        <Component {...props} />
      </Suspense>
    );
  });
}
