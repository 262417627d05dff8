import { describe, expect, inject, it } from 'vitest';
import { translate } from '#i18n/translate.ts';
import { postDemoCode } from './browser.ts';
import { type MadeUser, makeUser, type Persona } from './fixtures.ts';

// Issue 14, "One entitlement rule": every demo member, made afresh like the demo account
// (decision 015), walks My Shelf and every one of their course sections. Every button that
// opens something (read, start reading, open a collection, enter a classroom) must open it:
// 2xx, never a 403 or a 404. Every book of their sections that showed no such button is
// refused with its reason in the member's language, never a bare 403 or a 500. Plain HTTP, as
// the buttons are plain links: no browser needed to follow them.

const base = () => inject('baseUrl');
const FORM = 'application/x-www-form-urlencoded';

type Session = { cookie: string; email: string };

async function logIn(user: MadeUser): Promise<Session> {
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  };
  const header = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const status = await fetch(`${base()}/api/account/login`);
  keep(status);
  const token = ((await status.json()) as { data: { attributes: { csrfToken: string } } }).data
    .attributes.csrfToken;
  const response = await fetch(`${base()}/accounts/login/`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: header(), 'content-type': FORM },
    body: new URLSearchParams({
      csrfmiddlewaretoken: token,
      email: user.email,
      password: user.password,
      next: '/',
    }).toString(),
  });
  expect(response.status, `${user.email} logs in`).toBe(302);
  keep(response);
  if (response.headers.get('location')?.startsWith('/accounts/login/verify')) {
    // Managers answer their second factor (issue 20).
    const verified = await postDemoCode({
      base: base(),
      cookie: header(),
      csrfToken: token,
      email: user.email,
    });
    expect(verified.status, `${user.email} passes the second step`).toBe(302);
    keep(verified);
  }
  return { cookie: header(), email: user.email };
}

/** GET as the member, following redirects inside the store (never to the login page). */
async function get(session: Session, path: string, locale?: string) {
  let target = path;
  for (let hop = 0; hop < 5; hop += 1) {
    const response = await fetch(`${base()}${target}`, {
      redirect: 'manual',
      headers: { cookie: locale ? `${session.cookie}; LANG=${locale}` : session.cookie },
    });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      target = new URL(location, `${base()}${target}`).pathname + new URL(location, base()).search;
      continue;
    }
    return { status: response.status, url: target, body: await response.text() };
  }
  throw new Error(`${path}: too many redirects`);
}

const decode = (href: string) => href.replaceAll('&amp;', '&');

/** The hrefs of the page's opening buttons: links styled as buttons to what opens. */
function openingLinks(html: string): string[] {
  const links = [...html.matchAll(/<a\b[^>]*>/g)]
    .map((match) => match[0])
    .filter((tag) => /class="[^"]*\bbutton\b/.test(tag))
    .map((tag) => decode(/href="([^"]+)"/.exec(tag)?.[1] ?? ''))
    .filter((href) => /^\/(book\/read|cds_book_read|collection|classroom)\/\d+/.test(href));
  return [...new Set(links)];
}

const REASONS = [
  'access.reason.notEntitled',
  'access.reason.optedOut',
  'access.reason.optedOutClosed',
  'access.reason.termEnded',
  'access.reason.notStarted',
  'access.reason.revoked',
  'reading.error.expired',
];

/** The refusal's reason as the page shows it, in that language, whatever its values. */
function hasReason(body: string, locale: 'en' | 'fr-CA'): boolean {
  const text = body.replaceAll('&#x27;', "'").replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  return REASONS.some((key) => {
    const message = translate(locale, key, { date: '\u0000', deadline: '\u0000' });
    return message.split('\u0000').every((part) => text.includes(part));
  });
}

const PERSONAS: Persona[] = ['student', 'instructor', 'ta', 'bookstore', 'manager'];

describe('every demo member, every material of every section (issue 14)', () => {
  for (const persona of PERSONAS) {
    it(`${persona}: every button opens, and every other book says why not`, async () => {
      const session = await logIn(await makeUser({ like: persona, label: 'walk' }));
      const shelf = await get(session, '/shelf?term=all');
      expect(shelf.status).toBe(200);
      const sections = [
        ...new Set([...shelf.body.matchAll(/\/shelf\/course-section\/(\d+)/g)].map((m) => m[1]!)),
      ];
      const opened = new Map<string, number>();
      const listed = new Set<string>();
      const buttons = openingLinks(shelf.body);
      // The library lists what they own, each with its own way in (issue 14: a Read Now there
      // led to "not found" for a book with no file).
      const library = await get(session, '/library/');
      expect(library.status).toBe(200);
      buttons.push(...openingLinks(library.body));
      for (const id of sections) {
        const page = await get(session, `/shelf/course-section/${id}`);
        expect(page.status, `course section ${id}`).toBe(200);
        buttons.push(...openingLinks(page.body));
        for (const match of page.body.matchAll(/\/product-detail\/(\d+)\?ecommerce_course_id=/g)) {
          listed.add(match[1]!);
        }
      }
      for (const href of new Set(buttons)) {
        const answer = await get(session, href);
        // A button that leads to a 403, a 404 or the login page is the defect issue 14 names.
        expect(answer.status, `${persona}: ${href}`).toBe(200);
        expect(answer.url.startsWith('/accounts/login'), href).toBe(false);
        const id = /^\/[a-z_/]+?\/(\d+)/.exec(href)?.[1];
        if (id) opened.set(id, answer.status);
      }
      // Every book of their sections that opened through no button is refused with a reason.
      for (const id of listed) {
        if (opened.has(id)) continue;
        const answer = await get(session, `/book/read/${id}/`);
        expect(answer.status, `${persona}: /book/read/${id}/`).not.toBe(500);
        if (answer.status === 200) continue; // it opens (a courseware's page is not a book)
        if (answer.status === 404) continue; // not a book: courseware, a classroom, print
        expect(answer.status).toBe(403);
        expect(hasReason(answer.body, 'en'), `${persona}: reason for ${id}`).toBe(true);
      }
      // The walk is not empty: members with sections have materials and something opens.
      if (persona !== 'manager' && persona !== 'bookstore') {
        expect(sections.length, `${persona} has sections`).toBeGreaterThan(0);
        expect(opened.size, `${persona} opens something`).toBeGreaterThan(0);
      }
    });
  }

  it('another member’s reader URL is refused with the reason, in English and French', async () => {
    const owner = await logIn(await makeUser({ like: 'student', label: 'walk-owner' }));
    const stranger = await logIn(await makeUser({ label: 'walk-stranger' }));
    const shelf = await get(owner, '/shelf?term=all');
    const [href] = openingLinks(shelf.body).filter((link) => link.startsWith('/book/read/'));
    expect(href, 'the student reads a book from My Shelf').toBeDefined();
    expect((await get(owner, href!)).status).toBe(200);
    const refused = await get(stranger, href!);
    expect(refused.status).toBe(403);
    expect(hasReason(refused.body, 'en')).toBe(true);
    const french = await get(stranger, href!, 'fr-CA');
    expect(french.status).toBe(403);
    expect(hasReason(french.body, 'fr-CA')).toBe(true);
  });
});
