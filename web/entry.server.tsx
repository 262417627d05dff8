import { Writable } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import type { AppLoadContext, EntryContext } from 'react-router';
import { ServerRouter } from 'react-router';
import { inlineScriptHashes } from '#server/script-hashes.ts';

export const streamTimeout = 5_000;

/**
 * Renders the whole document before answering. Loaders have already awaited their data, so
 * streaming would only send the shell a moment earlier; a complete document can be hashed
 * for the Content-Security-Policy (no per-response nonce) and stored by the page cache.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  return new Promise<Response>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} />,
      {
        onAllReady() {
          pipe(sink);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          loadContext.log.error({ err: error }, 'render error');
        },
      },
    );
    sink.on('finish', () => {
      clearTimeout(timer);
      const html = Buffer.concat(chunks).toString('utf8');
      loadContext.scriptHashes = inlineScriptHashes(html);
      responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
      resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
    });
    const timer = setTimeout(abort, streamTimeout + 1_000);
  });
}
