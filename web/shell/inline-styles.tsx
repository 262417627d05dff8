import { createContext, useContext } from 'react';
import { useInnerHtml } from '#web/utils/inner-html.ts';

// The stylesheet is written into every page's <head> instead of linked (issue 13, fast on a
// phone): a linked stylesheet blocks the first paint for one more round trip, which on a
// phone's network (Lighthouse: 150 ms RTT) kept first contentful paint above 1.8 s. The whole
// sheet is 4.6 kB compressed, a few hundred bytes more per page than a cached file would cost.
//
// The server renders it from entry.server.tsx (the text comes from a `?inline` import there, so
// it is not in any browser bundle). The browser keeps what the server wrote: hydration does
// not rewrite an element's inner HTML, and the text read back from the page keeps the props
// equal on every later render.
export const InlineStylesContext = createContext<string | null>(null);

const ID = 'app-styles';

function writtenByServer(): string {
  return typeof document === 'undefined' ? '' : (document.getElementById(ID)?.textContent ?? '');
}

export function InlineStyles() {
  const css = useInnerHtml(useContext(InlineStylesContext) ?? writtenByServer());
  // biome-ignore lint/security/noDangerouslySetInnerHtml: our own stylesheet, from the build (web/styles/app.css)
  return <style id={ID} dangerouslySetInnerHTML={css} />;
}
