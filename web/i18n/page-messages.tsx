import { useInnerHtml } from '#web/utils/inner-html.ts';
import { pageMessages } from './catalog.ts';

export const PAGE_MESSAGES_ID = 'page-messages';

/**
 * The messages this page was rendered with, for the browser to hydrate with (catalog.ts).
 * Last in the body: by then the server's render has used all of them.
 */
export function PageMessages() {
  const messages = useInnerHtml(pageMessages());
  return (
    <script
      type="application/json"
      id={PAGE_MESSAGES_ID}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON of our own catalog, `<` escaped
      dangerouslySetInnerHTML={messages}
    />
  );
}
