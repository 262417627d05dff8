import { describe, expect, it } from 'vitest';
import { en } from './messages/en.ts';
import { frCA } from './messages/fr-CA.ts';
import { formatMoney, translate } from './translate.ts';

describe('message catalogs', () => {
  it('French has every English id and nothing more', () => {
    expect(Object.keys(frCA).sort()).toEqual(Object.keys(en).sort());
  });

  it('every message parses as ICU in both languages', () => {
    const params = {
      ...{
        count: 2,
        minutes: 2,
        name: 'x',
        title: 't',
        year: 2026,
        tool: 't',
        id: 'r',
        amount: '$1.00',
      },
      ...{
        author: 'a',
        price: '$1',
        host: 'h',
        isbn: 'i',
        terms: 'q',
        from: 1,
        first: 1,
        last: 2,
        to: 2,
        page: 1,
        pages: 2,
        days: 3,
        date: 'd',
        carrier: 'c',
        credential: 'c',
        contact: 'c',
        version: '2.1',
        root: 'r',
        value: 'v',
        code: 'c',
        form: 'f',
        line: 1,
        percent: 5,
        records: 10,
        release: '3.0',
        detail: 'd',
        language: 'l',
        width: 10,
        type: 't',
        action: 'a',
        course: 'c',
        subtotal: 's',
        name: 'n',
        product: 'p',
        minutes: 2,
        number: 'n',
        direction: 'out',
      },
      // The reader and section analytics (issue 5).
      ...{ query: 'q', percent: 10, used: 1, limit: 9, remaining: 8, section: 's', n: 1 },
      ...{ total: 3, chapter: 'c', left: 1, label: 'l' },
      // The display guide's conformance claim (issue 13).
      ...{ epub: '1.1', wcag: '2.1', level: 'AA' },
      // Refusals and what left the shelf (issue 14).
      ...{
        deadline: '2026-12-03',
        course: 'BIO 101',
        message: 'm',
        role: 'r',
        kid: 'k',
        reason: 'r',
      },
      // The course finder (issue 19).
      ...{ code: 'BIO' },
      // What was bought and how it was paid (issue 19).
      ...{ brand: 'Visa', last4: '4242' },
      // Orders, receipts and privacy self-service (issue 20).
      ...{ status: 's', amount: '$1.00', phone: 'p', email: 'e', years: 7 },
      // Signed-in devices, campus sign-in, the second factor (issue 20).
      ...{ browser: 'Firefox', system: 'Linux', campus: 'c', device: 'd' },
      // Security notices, labels, the passkey's host (issue 20, session 9).
      ...{ when: 'w', detail: 'd', value: 'v', address: 'http://localhost:3000' },
      // The bookstore's section places (issue 20).
      ...{ max: 500, org: 'o' },
      // Campus sign-in settings (issue 20).
      ...{ oidc: 'o', saml: 's', domain: 'd' },
      // The reader's Go to page and its printed page (issue 16).
      ...{ first: 'xi', last: '130' },
      // The reader's notebook (issue 16).
      ...{ colour: 'Green', leftOut: 3, quote: 'q', note: 'n', rate: 1.25 },
      // A book file of another format than the e-book's (issue 15).
      ...{ format: 'EPUB', file: 'PDF' },
      // The course fee on the public section page, an offering's name (issue 38).
      ...{ fee: '$79.00', kind: 'eBook', term: '180-day rental' },
      // Issue 39 part: term dashboard.
      ...{ org: 'Riverbend', term: 'Fall 2026', section: 'BIO 101', first: 'd', last: 'd' },
      // Issue 39 part: courses and sections (Course Manager, Course Admin).
      ...{ start: 's', end: 'e', name: 'n', title: 't', course: 'c', section: 's', term: 't' },
      // Issue 39 part: refunds.
      ...{ refunded: '$1.00', gateway: 'test' },
      // Issue 39 part: bursar billing.
      ...{ charges: 2, credits: 1 },
      // Issue 39 part: help desk and Switch Account (the person, a role, a code's last digits).
      ...{ name: 'Maya Patel', role: 'Support', last4: '4242', id: 'S1234' },
      // Issue 39 part: roster import (package refusals, row reasons, progress, counts).
      ...{ column: 'c', found: 'f', expected: 'e', mode: 'm', property: 'p', user: 'u' },
      ...{ done: 1, system: 's', created: 1, updated: 1, ended: 1, refused: 1 },
      // Issue 39 part: the audit in words (a person acted as, a field's label).
      ...{ person: 'Sam Lee', label: 'l' },
      // Issue 39 part: a declined refund's mail (the policy's rule).
      ...{ rule: 'r' },
      // The Claim Code Checker (a code, its redeemer masked) and SKU Lookup (a number).
      ...{ code: 'SHELFDEMO2026', email: 's•••t@demo.test', sku: '9780306406157' },
      // My Inventory (a line's offering, its units, the limits).
      ...{ offering: 'Print · Print copy, shipped', stock: 3, low: 5, min: 1, q: 'q' },
    };
    for (const id of Object.keys(en)) {
      expect(() => translate('en', id, params)).not.toThrow();
      expect(() => translate('fr-CA', id, params)).not.toThrow();
    }
  });

  it('spec 1 §4, §5; spec 2 §8: the opting texts to the letter', () => {
    expect(translate('en', 'opting.banner.optedOut', { days: 3 })).toBe(
      'You are currently opted out. You have 3 day(s) to opt in and gain access to all your materials.',
    );
    expect(translate('en', 'opting.banner.optedIn', { days: 1 })).toBe(
      'You are currently opted in. You have 1 day(s) to opt out of inclusive access for this course.',
    );
    expect(translate('en', 'opting.banner.partner.optedOut', { days: 2 })).toMatch(
      /to opt in to your ACCESS program to save on these materials\.$/,
    );
    expect(translate('en', 'opting.banner.partner.optedOutClosed')).toBe(
      'You have opted out of digital materials and the opting deadline has passed. If you are missing materials, please go to your campus bookstore to purchase.',
    );
    expect(translate('en', 'opting.optOut.title')).toBe('Are you sure you want to opt out?');
    expect(translate('en', 'opting.optIn.title')).toBe("Let's get you opted in!");
    expect(translate('en', 'opting.confirm.mismatch')).toBe(
      'Enter the text OPTOUT, one word, in all capital letters',
    );
    expect(translate('en', 'errorModal.title')).toBe('Sorry, something went wrong.');
    expect(translate('en', 'opting.error', { direction: 'in' })).toBe(
      "We're sorry, your request to opt-in could not be processed. Please try again...",
    );
    expect(translate('en', 'opting.error', { direction: 'out' })).toBe(
      "We're sorry, your request to opt-out could not be processed. Please try again...",
    );
    expect(translate('en', 'opting.reason.1')).toBe(
      "purchased access directly from the publisher's website",
    );
    expect(translate('fr-CA', 'opting.banner.optedOut', { days: 1 })).toContain('1 jour ');
  });

  it('uses plurals', () => {
    expect(translate('en', 'login.error.throttled', { minutes: 1 })).toBe(
      'Too many failed attempts. Please try again in 1 minute.',
    );
    expect(translate('fr-CA', 'login.error.throttled', { minutes: 3 })).toContain('3 minutes');
  });

  it('keeps the spec texts to the letter (spec 2 §8)', () => {
    expect(translate('en', 'error.notFound')).toBe("Sorry, that page doesn't exist.");
    expect(translate('en', 'error.forbidden')).toBe("Sorry, you can't access this page.");
    expect(translate('en', 'error.heading')).toBe('Sorry, we have encountered an error.');
  });

  it('spec 1 §2: the product side sheet title and the empty state, in both languages', () => {
    expect(translate('en', 'sheet.title')).toBe('Product Details');
    expect(translate('fr-CA', 'sheet.title')).toBe('Détails du produit');
    expect(translate('en', 'library.empty')).toBe(
      "Sorry, You don't have any materials to display here yet.",
    );
  });

  it('spec 2 §9: money in USD as $0,0.00', () => {
    expect(formatMoney('en', 123456)).toBe('$1,234.56');
    expect(formatMoney('en', 0)).toBe('$0.00');
  });

  it('issue 38: the opting deadline is the opt-out deadline in French, not an enrolment one', () => {
    expect(translate('fr-CA', 'opting.banner.deadline', { date: '2026-12-16' })).toBe(
      'Date limite de désinscription : 2026-12-16',
    );
  });

  it('issue 38: in Canadian French a US amount names its currency, never a bare "$"', () => {
    expect(formatMoney('fr-CA', 5299)).toBe('52,99\u00a0$\u00a0US');
    expect(formatMoney('fr-CA', 123456)).toBe('1\u00a0234,56\u00a0$\u00a0US');
    expect(formatMoney('fr-CA', 0)).toBe('0,00\u00a0$\u00a0US');
  });
});
