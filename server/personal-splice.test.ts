import { describe, expect, it } from 'vitest';
import { personalPartScript, splicePersonalPart } from './personal-splice.ts';

// Decision 043: a logged-in page is the stored anonymous page, its navbar slot written for the
// visitor and their personal part added as data the browser does not run.
const text = [
  '<!DOCTYPE html><html><head><script>window.x=1</script></head><body>',
  '<nav><ul class="navbar__actions" data-personal-slot="navbar"><li><a href="/accounts/login/">Log In</a></li></ul>',
  '<ul class="tray"><li>Book</li></ul></nav>',
  '<main>page</main><script type="module">import("/a.js")</script></body></html>',
].join('');
const page = Buffer.from(text);
const spliced = (...args: Parameters<typeof splicePersonalPart>) =>
  splicePersonalPart(...args)?.toString('utf8') ?? null;

describe('splicePersonalPart', () => {
  it("replaces the slot's inner markup only, and adds the part before </body>", () => {
    const out = spliced(
      page,
      { navbar: '<li><button>Ada</button></li>' },
      { root: { user: { firstName: 'Ada' } } },
    );
    expect(out).toContain(
      '<ul class="navbar__actions" data-personal-slot="navbar"><li><button>Ada</button></li></ul>',
    );
    expect(out).not.toContain('Log In');
    // The next list, the scripts and the rest of the page are as stored.
    expect(out).toContain('<ul class="tray"><li>Book</li></ul>');
    expect(out).toContain('<script>window.x=1</script>');
    expect(out).toMatch(
      /<script type="module">import\("\/a.js"\)<\/script><script type="application\/json" id="personal-part">\{"root":\{"user":\{"firstName":"Ada"\}\}\}<\/script><\/body><\/html>$/,
    );
  });

  it('a page without the slot is not composed', () => {
    expect(
      spliced(Buffer.from(text.replace(' data-personal-slot="navbar"', '')), { navbar: 'x' }, {}),
    ).toBeNull();
    expect(spliced(Buffer.from(text.replace('</body>', '')), { navbar: 'x' }, {})).toBeNull();
  });

  it('keeps the bytes of a page in other scripts as they are, and writes the names in UTF-8', () => {
    const french = Buffer.from(
      text.replace('<main>page</main>', '<main>Écoutez « Chimie » 化学</main>'),
    );
    const out = spliced(
      french,
      { navbar: '<li>Élodie</li>' },
      { root: { user: { firstName: 'Élodie' } } },
    );
    expect(out).toContain('<main>Écoutez « Chimie » 化学</main>');
    expect(out).toContain('data-personal-slot="navbar"><li>Élodie</li></ul>');
    expect(out).toContain('{"firstName":"Élodie"}');
  });

  it('a name cannot end the data block: < is escaped, and the JSON reads back the same', () => {
    const part = { root: { user: { firstName: '</script><script>alert(1)</script>\u2028' } } };
    const script = personalPartScript(part);
    const body = script.slice(script.indexOf('>') + 1, script.lastIndexOf('</script>'));
    expect(body).not.toContain('<');
    expect(JSON.parse(body)).toEqual(part);
    expect(script.startsWith('<script type="application/json" id="personal-part">')).toBe(true);
  });
});
