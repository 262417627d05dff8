import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import type { Locale } from '#domain/accounts/language.ts';
import { loadCatalog } from '#web/i18n/catalog.ts';

/**
 * A page as the server renders it, in a language, with the data its loader gave: the root
 * carries the locale (useT), the route the data (useLoaderData). For tests that assert what a
 * person reads on a page without a browser.
 */
export async function renderPage(
  locale: Locale,
  Component: ComponentType,
  loaderData: unknown,
  /** What the route's action answered a post with (a question, field errors), if posted. */
  options: { actionData?: unknown } = {},
): Promise<string> {
  await loadCatalog(locale);
  const posted = 'actionData' in options;
  const routes = [
    {
      id: 'root',
      path: '/',
      loader: () => ({ locale, csrfToken: 'token' }),
      children: [
        {
          id: 'page',
          path: 'page',
          loader: () => loaderData,
          action: () => options.actionData,
          Component,
        },
      ],
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(
    new Request('http://localhost/page', posted ? { method: 'POST', body: new FormData() } : {}),
  );
  if (context instanceof Response) throw new Error('unexpected redirect');
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#x27': "'",
  '#39': "'",
  nbsp: ' ',
};

/** Markup as text: tags and React's comments gone, entities read, no-break spaces plain. */
export function textOf(html: string): string {
  return html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(#x27|#39|amp|lt|gt|quot|nbsp);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/[\u00a0\u202f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The rows of the table with this caption, each as its cells' texts. */
export function tableRows(html: string, caption: string): string[][] {
  const tables = html.split('<table').slice(1);
  const table = tables.find((t) => {
    const found = /<caption[^>]*>([\s\S]*?)<\/caption>/.exec(t);
    return found !== null && textOf(found[1]!) === caption;
  });
  if (!table) throw new Error(`no table named ${caption}`);
  return table
    .split('</table>')[0]!
    .split(/<tr[^>]*>/)
    .slice(1)
    .map((row) =>
      row
        .split(/<t[hd][^>]*>/)
        .slice(1)
        .map((cell) => textOf(cell)),
    );
}
