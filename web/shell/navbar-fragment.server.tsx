import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import type { Locale } from '#domain/accounts/language.ts';
import { NavbarActions } from '#web/components/navbar-actions.tsx';
import { loadCatalog, translatePage } from '#web/i18n/catalog.ts';
import type { RootData } from '#web/root-data.ts';
import { markupCache } from '#web/utils/markup-cache.server.ts';
import type { PersonalPart } from '#web/utils/personal-part.ts';

/**
 * The navbar's cart, Help and account items for a logged-in visitor, as markup the server
 * writes into the stored anonymous page it composes for them (decision 043): the same
 * component the page renders, alone, so nobody sees the anonymous header first and a browser
 * without JavaScript sees who is logged in.
 */
export async function navbarFragment(input: {
  locale: Locale;
  links: RootData['site']['links'];
  part: PersonalPart;
  next: string;
}): Promise<string> {
  // The markup is a function of what it is given: a visitor moving from page to page, or
  // reloading one, gets it without React rendering it again (a twentieth of a composed page).
  const key = JSON.stringify([
    input.locale,
    input.links,
    input.part.root.showCart,
    input.part.root.user,
    input.part.cartCount,
    input.next,
  ]);
  return fragments(key, () => renderFragment(input));
}

const fragments = markupCache();

async function renderFragment(input: Parameters<typeof navbarFragment>[0]): Promise<string> {
  await loadCatalog(input.locale);
  const t = (id: string, params?: Parameters<typeof translatePage>[2]) =>
    translatePage(input.locale, id, params);
  return renderToStaticMarkup(
    <MemoryRouter>
      <NavbarActions
        site={{ showCart: input.part.root.showCart, links: input.links }}
        user={input.part.root.user}
        cartCount={input.part.cartCount}
        next={input.next}
        t={t}
      />
    </MemoryRouter>,
  );
}
