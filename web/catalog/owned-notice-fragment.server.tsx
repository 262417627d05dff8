import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import type { Locale } from '#domain/accounts/language.ts';
import { loadCatalog, translatePage } from '#web/i18n/catalog.ts';
import type { ProductPersonal } from '#web/routes/product.server.ts';
import { markupCache } from '#web/utils/markup-cache.server.ts';
import { OwnedNotice } from './owned-notice.tsx';

/**
 * The product page's "you have this" panel for a logged-in visitor, as markup the server writes
 * into the stored anonymous page it composes for them (decision 043): the same component the
 * page renders, so a browser without JavaScript sees what they own and the way in, and one
 * with JavaScript sees it from the first paint. Empty when they have nothing of it.
 */
export async function ownedNoticeFragment(input: {
  locale: Locale;
  productId: number;
  hasReaderFile: boolean;
  personal: ProductPersonal;
}): Promise<string> {
  const { owned, until, opens, classroom } = input.personal;
  if (!owned && opens === null) return '';
  // A function of what it is given, kept like the navbar's (markup-cache.server.ts).
  const key = JSON.stringify([
    input.locale,
    input.productId,
    input.hasReaderFile,
    owned,
    until,
    opens,
    classroom,
  ]);
  return fragments(key, () => render(input));
}

const fragments = markupCache();

async function render(input: Parameters<typeof ownedNoticeFragment>[0]): Promise<string> {
  const { owned, until, opens, classroom } = input.personal;
  await loadCatalog(input.locale);
  const t = (id: string, params?: Parameters<typeof translatePage>[2]) =>
    translatePage(input.locale, id, params);
  return renderToStaticMarkup(
    <MemoryRouter>
      <OwnedNotice
        t={t}
        productId={input.productId}
        hasReaderFile={input.hasReaderFile}
        owned={owned}
        until={until}
        opens={opens}
        classroom={classroom}
      />
    </MemoryRouter>,
  );
}
