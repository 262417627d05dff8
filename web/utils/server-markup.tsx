import { type ReactNode, useId, useState } from 'react';
import { useInnerHtml } from './inner-html.ts';

let hydrated = false;

/** Called once, by the shell's first effect: from then on every list renders in the browser. */
export function pageHydrated(): void {
  hydrated = true;
}

/**
 * A list of plain markup (product cards: text, images and `data-app-link` anchors, no state
 * and no handlers) that the page keeps as the server wrote it when it hydrates, instead of
 * rendering every card again to compare. On the search page that was most of hydration: 80
 * results are about 1,100 elements and 400 messages (issue 13, Lighthouse's blocking time).
 *
 * `version` names what the children show (the products and the language). A list mounted
 * after hydration (a client navigation), or whose version has changed since, renders its
 * children as usual.
 */
export function ServerMarkup({
  as: List,
  version,
  className,
  start,
  children,
}: {
  as: 'ol' | 'ul';
  version: string;
  className?: string;
  start?: number;
  children: ReactNode;
}) {
  const id = useId();
  const [kept] = useState(() => ({
    version,
    html:
      hydrated || typeof document === 'undefined'
        ? null
        : (document.getElementById(id)?.innerHTML ?? null),
  }));
  const html = useInnerHtml(kept.html ?? '');
  return kept.html !== null && kept.version === version ? (
    <List
      key="server"
      id={id}
      className={className}
      start={start}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the page's own markup, read back from the document the server wrote
      dangerouslySetInnerHTML={html}
    />
  ) : (
    <List key="browser" id={id} className={className} start={start}>
      {children}
    </List>
  );
}
