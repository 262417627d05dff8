import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router';

// Which methods a page URL serves (issue 18): GET and HEAD where the route renders or loads,
// POST where it has an action, OPTIONS everywhere. React Router would hand PUT, PATCH and
// DELETE to an action too; our forms only post, so those are 405 before any body is read.

type Methods = readonly string[];
const READ: Methods = ['GET', 'HEAD', 'OPTIONS'];
const READ_AND_POST: Methods = ['GET', 'HEAD', 'POST', 'OPTIONS'];
const POST_ONLY: Methods = ['POST', 'OPTIONS'];

type Route = RouteObject & { id: string };

function tree(routes: ServerBuild['routes'], parentId: string | undefined): Route[] {
  return Object.values(routes)
    .filter((route) => route?.parentId === parentId)
    .map((route) => {
      const node = {
        id: route!.id,
        path: route!.path,
        caseSensitive: route!.caseSensitive,
      };
      return route!.index
        ? { ...node, index: true as const }
        : { ...node, children: tree(routes, route!.id) };
    });
}

/** How many answers pageMethodsOf keeps: the pages that take posts are a few dozen. */
const REMEMBERED = 512;

/**
 * The methods of the page at `pathname` (single-fetch `.data` URLs included), or null when only
 * the catch-all route matches: there is no page there, whatever the method.
 *
 * React Router's matchRoutes flattens and ranks the whole tree at every call: 2 ms of CPU on
 * our 94 routes for each request that is not a GET (issue 36: a quarter of the hostile-input
 * suite's server time). The answer depends on the path and on `?index` alone, so the last
 * answers are kept; a visitor trying paths by the thousand only empties the memory, and each
 * path is then matched again.
 */
export function pageMethodsOf(
  build: ServerBuild,
): (pathname: string, search: string) => Methods | null {
  const routes = tree(build.routes, undefined);
  const remembered = new Map<string, Methods | null>();
  const methodsOf = (path: string, index: boolean): Methods | null => {
    const matches = matchRoutes(routes, path) ?? [];
    let last = matches.at(-1);
    // A form posts to an index route only when it says `?index`; otherwise to its parent.
    if (last?.route.index && !index) last = matches.at(-2);
    if (!last || last.route.path === '*') return null;
    const module = build.routes[(last.route as Route).id]?.module;
    if (!module) return null;
    const reads = Boolean(module.loader || module.default);
    if (module.action) return reads ? READ_AND_POST : POST_ONLY;
    return READ;
  };
  return (pathname, search) => {
    let path = pathname;
    // React Router's data requests: /_root.data is the home page, /x.data is /x.
    if (path === '/_root.data') path = '/';
    else if (path.endsWith('.data')) path = path.slice(0, -'.data'.length);
    const index = search.length > 1 && new URLSearchParams(search).has('index');
    const key = `${index ? '?' : ''}${path}`;
    if (remembered.has(key)) return remembered.get(key) ?? null;
    const methods = methodsOf(path, index);
    if (remembered.size >= REMEMBERED) remembered.clear();
    remembered.set(key, methods);
    return methods;
  };
}
