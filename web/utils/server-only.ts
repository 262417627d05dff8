import { createContext, useContext } from 'react';

/**
 * Data a loader gives the server's rendering of the page and not the browser: React Router
 * sends every loader value to the browser inside the document, where it is parsed and decoded
 * before the page hydrates. A list the page hydrates from the server's markup (<ServerMarkup>)
 * needs its data only to be written, once, on the server: the 100 cards of a search page were
 * 65 kB of the document's 226 kB (issue 13, fast on a phone).
 *
 * A loader sets a value for a document request (`context.documentRequest`, server/app.ts) in
 * `context.serverOnly`; entry.server.tsx hands that map to the render, and `useServerOnly`
 * reads it. In the browser it reads nothing: the page asks again for what it needs there.
 */
export const ServerOnlyContext = createContext<ReadonlyMap<string, unknown> | null>(null);

export function useServerOnly<T>(key: string): T | undefined {
  return useContext(ServerOnlyContext)?.get(key) as T | undefined;
}
