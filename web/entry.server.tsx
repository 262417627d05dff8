import { renderToString } from 'react-dom/server';
import type { AppLoadContext, EntryContext } from 'react-router';
import { ServerRouter } from 'react-router';
import { LANGUAGES } from '#domain/accounts/language.ts';
import { routePatternInstrumentation } from '#server/route-pattern.ts';
import { inlineScriptHashes } from '#server/script-hashes.ts';
import { loadCatalog, renderNotingMessages } from '#web/i18n/catalog.ts';
import { LocaleContext } from '#web/i18n/locale-context.ts';
import { InlineStylesContext } from '#web/shell/inline-styles.tsx';
import { attachmentResponse } from '#web/utils/attachment.server.ts';
import { ServerOnlyContext } from '#web/utils/server-only.ts';
import appStyles from './styles/app.css?inline';

export const streamTimeout = 5_000;

/** The route pattern each request matched, for the metrics' labels (server/route-pattern.ts). */
export const instrumentations = [routePatternInstrumentation];

type StreamCache = Record<number, { result: { done: boolean; value: string } }>;

/**
 * Renders the whole document with React's renderToString, the fastest server renderer
 * (issue 3 measured it at twice the streaming one). Loaders have already awaited their data,
 * so streaming would only send the shell a moment earlier, and a complete document can be
 * hashed for the Content-Security-Policy (no per-response nonce) and stored by the page cache.
 *
 * React Router hands the loader data to the browser through a stream that its <ServerRouter>
 * reads while rendering (StreamTransfer suspends on each chunk, which renderToString cannot
 * wait for). We read that stream to the end first and give the chunks to the router in the
 * cache StreamTransfer looks in (`renderMeta.streamCache`, react-router 7.18.4, pinned), so
 * the render never suspends. The browser suite checks every page still hydrates.
 *
 * The page is in the request's language even when the root loader did not run (a form post
 * that failed, a 500): LocaleContext carries it (web/i18n/locale-context.ts). Every language's
 * messages are loaded (once) before rendering, and the page carries the ones it used
 * (web/i18n/catalog.ts). A page route that answered a file (web/utils/attachment.server.ts) is
 * sent as that file.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const stream = routerContext.serverHandoffStream;
  const file = attachmentResponse(routerContext);
  if (file) {
    await stream?.cancel();
    return file;
  }
  await Promise.all(LANGUAGES.map(loadCatalog));
  if (stream) {
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    const streamCache: StreamCache = {};
    for (let index = 0; ; index += 1) {
      const { done, value } = await reader.read();
      streamCache[index] = { result: { done, value: decoder.decode(value, { stream: true }) } };
      if (done) break;
    }
    reader.releaseLock();
    Object.assign(routerContext.renderMeta ?? {}, { streamCache });
  }
  const rendered = `<!DOCTYPE html>${renderNotingMessages(() =>
    renderToString(
      <LocaleContext.Provider value={loadContext.rc.locale}>
        <InlineStylesContext.Provider value={appStyles}>
          <ServerOnlyContext.Provider value={loadContext.serverOnly}>
            <ServerRouter context={routerContext} url={request.url} />
          </ServerOnlyContext.Provider>
        </InlineStylesContext.Provider>
      </LocaleContext.Provider>,
    ),
  )}`;
  const html = lowPriorityModulePreloads(rendered);
  loadContext.scriptHashes = inlineScriptHashes(html);
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
  return new Response(html, { headers: responseHeaders, status: responseStatusCode });
}

/**
 * The page's scripts are fetched after what paints it (issue 13, fast on a phone). React
 * hoists the router's `modulepreload` links to the top of <head>, where the browser fetches
 * them at high priority, ahead of the cover images, though the page is complete and readable
 * without them (they make it interactive). At low priority they still load at once on a fast
 * network; on a phone's they no longer hold back the first paint.
 */
export function lowPriorityModulePreloads(html: string): string {
  // Only <head> holds them: rewriting the whole page (186 kB for a hundred search results)
  // cost a millisecond a request (issue 13, search at a million products).
  const headEnd = html.indexOf('</head>');
  if (headEnd < 0) return html;
  return (
    html
      .slice(0, headEnd)
      .replaceAll('<link rel="modulepreload" ', '<link rel="modulepreload" fetchPriority="low" ') +
    html.slice(headEnd)
  );
}
