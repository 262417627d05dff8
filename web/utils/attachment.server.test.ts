import { createStaticHandler, data, type EntryContext } from 'react-router';
import { describe, expect, it } from 'vitest';
import { attachment, attachmentResponse } from './attachment.server.ts';

/** What entry.server.tsx is given for a GET of the page route whose loader is `loader`. */
async function entryContext(loader: () => unknown): Promise<EntryContext> {
  const handler = createStaticHandler([
    {
      id: 'root',
      path: '/',
      loader: () => ({ locale: 'en' }),
      children: [{ id: 'file', path: 'file.csv', loader, ErrorBoundary: () => null }],
    },
  ]);
  const context = await handler.query(new Request('http://localhost/file.csv'));
  if (context instanceof Response) throw new Error('unexpected redirect');
  return { staticHandlerContext: context } as unknown as EntryContext;
}

describe('a page route that answers a file (issue 18)', () => {
  it('is sent as the file, with its headers and a safe file name', async () => {
    const response = attachmentResponse(
      await entryContext(() =>
        attachment('\uFEFFa,b\r\n', {
          filename: 'opt-status-BIO 101/"x".csv',
          contentType: 'text/csv; charset=utf-8',
        }),
      ),
    );
    expect(response?.status).toBe(200);
    expect(response?.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(response?.headers.get('Content-Disposition')).toBe(
      'attachment; filename="opt-status-BIO_101__x_.csv"',
    );
    expect(response?.headers.get('Cache-Control')).toBe('private, no-store');
    // The byte order mark survives (a Response's text() would drop it).
    expect(new Uint8Array(await response!.arrayBuffer()).slice(0, 3)).toEqual(
      new Uint8Array([0xef, 0xbb, 0xbf]),
    );
  });

  it('a failure is the page (its error boundary), not a file', async () => {
    const refused = await entryContext(() => {
      throw data({ messageKey: 'error.forbidden', params: {} }, { status: 403 });
    });
    expect(attachmentResponse(refused)).toBeNull();
  });

  it('an ordinary page is rendered as a page', async () => {
    expect(attachmentResponse(await entryContext(() => 'just text'))).toBeNull();
    expect(attachmentResponse(await entryContext(() => ({ title: 'x' })))).toBeNull();
  });
});
