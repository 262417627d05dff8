import { beforeEach, describe, expect, it, vi } from 'vitest';
import { en } from '#i18n/messages/en.ts';
import { frCA } from '#i18n/messages/fr-CA.ts';

// The catalog is module state (one per server process, one per page in the browser): each
// test starts from a fresh copy.
let catalog: typeof import('./catalog.ts');
beforeEach(async () => {
  vi.resetModules();
  catalog = await import('./catalog.ts');
});

describe('page messages (issue 13)', () => {
  it('the server notes the messages a render used, and the page carries exactly those', async () => {
    await catalog.loadCatalog('en');
    const json = catalog.renderNotingMessages(() => {
      catalog.translatePage('en', 'nav.cart');
      catalog.translatePage('en', 'home.lede', { count: 3 });
      catalog.notePageMessages('en', ['cart.view']);
      return catalog.pageMessages();
    });
    expect(JSON.parse(json)).toEqual({
      en: {
        'cart.view': en['cart.view'],
        'home.lede': en['home.lede'],
        'nav.cart': en['nav.cart'],
      },
    });
    // Outside a render nothing is noted.
    catalog.translatePage('en', 'nav.help');
    expect(catalog.pageMessages()).toBe('{}');
  });

  it('escapes < so the JSON cannot end its script element', async () => {
    await catalog.loadCatalog('en');
    const json = catalog.renderNotingMessages(() => {
      catalog.translatePage('en', 'nav.cart');
      return catalog.pageMessages();
    });
    expect(json).not.toContain('<');
  });

  it('a browser renders with its page messages; one it lacks is empty until the catalog has come', async () => {
    catalog.addPageMessages(JSON.stringify({ 'fr-CA': { 'nav.cart': frCA['nav.cart'] } }));
    expect(catalog.translatePage('fr-CA', 'nav.cart')).toBe('Panier');
    const rendered = vi.fn();
    catalog.subscribeCatalogs(rendered);
    const before = catalog.catalogsVersion();
    expect(catalog.translatePage('fr-CA', 'nav.help')).toBe('');
    expect(catalog.hasMessage('fr-CA', 'nav.help')).toBe(false);
    await catalog.loadCatalog('fr-CA');
    expect(rendered).toHaveBeenCalledTimes(1);
    expect(catalog.catalogsVersion()).toBe(before + 1);
    expect(catalog.translatePage('fr-CA', 'nav.help')).toBe(frCA['nav.help']);
    expect(catalog.hasMessage('fr-CA', 'nav.help')).toBe(true);
  });

  it('completes every language the page has messages of, and only those', async () => {
    catalog.addPageMessages(JSON.stringify({ en: { 'nav.cart': en['nav.cart'] } }));
    await catalog.completeCatalogs();
    expect(catalog.translatePage('en', 'nav.help')).toBe(en['nav.help']);
    expect(catalog.loadedLocale('fr-CA')).toBe('en');
  });

  it('an id no catalog has shows the generic error text', async () => {
    await catalog.loadCatalog('en');
    expect(catalog.translatePage('en', 'no.such.message')).toBe(en['error.generic']);
  });
});
