import { Outlet } from 'react-router';
import { ErrorPage } from './error-page.tsx';

/**
 * Every page route sits in this pathless layout (web/routes.ts) so that an error a page throws
 * stops here, inside the root's shell, and never at the root itself: React Router skips the
 * loaders from the boundary that catches an action's error down, so a boundary at the root
 * had no root data (no navbar, no banners), and the root's own boundary never had the skip
 * link or the banners (issue 13). The root's boundary is left for the root loader's failures.
 */
export default function ShellLayout() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
