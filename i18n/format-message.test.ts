import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, type Locale } from '#domain/accounts/language.ts';
import { formatMessage, type MessageParams } from './format-message.ts';
import { en } from './messages/en.ts';
import { frCA } from './messages/fr-CA.ts';

const catalogs: Record<Locale, Record<string, string>> = { en, 'fr-CA': frCA };

/** What intl-messageformat, the reference implementation, makes of a message (or its error). */
function reference(locale: Locale, text: string, params?: MessageParams): string {
  try {
    return String(
      new IntlMessageFormat(text, locale, undefined, { ignoreTag: true }).format(params),
    );
  } catch {
    return '<throws>';
  }
}

function ours(locale: Locale, text: string, params?: MessageParams): string {
  try {
    return formatMessage(locale, text, params);
  } catch {
    return '<throws>';
  }
}

/** Every argument a message names, given `value` (a select gets its first key, or none for a text). */
function paramsFor(text: string, value: number | string): MessageParams {
  const params: MessageParams = {};
  for (const match of text.matchAll(/\{\s*([\w]+)\s*(?:,\s*(\w+))?/g)) {
    const [, name, type] = match;
    if (type === 'select') {
      params[name!] =
        typeof value === 'string'
          ? value
          : (/\{\s*\w+\s*,\s*select\s*,\s*([\w-]+)/.exec(text.slice(match.index))?.[1] ?? 'x');
    } else {
      // A date: a time in milliseconds (noon UTC, the same day in any time zone of the test),
      // never a month's first day: there French writes « 1er » (format-day.ts), which
      // intl-messageformat does not.
      params[name!] =
        type === 'date'
          ? Date.UTC(2026, 4, 2, 12) + Math.trunc(Number(value) || 0) * 86_400_000
          : type === 'plural' || type === 'number'
            ? Number(value) || 0
            : value;
    }
  }
  return params;
}

describe('formatMessage', () => {
  it('writes a {date, date, long} day in the reader’s language, from YYYY-MM-DD or milliseconds', () => {
    const text = 'Your access to this book ended on {date, date, long}.';
    expect(formatMessage('en', text, { date: '2026-05-01' })).toBe(
      'Your access to this book ended on May 1, 2026.',
    );
    expect(
      formatMessage('fr-CA', 'Votre accès a pris fin le {date, date, long}.', {
        date: '2026-12-31',
      }),
    ).toBe('Votre accès a pris fin le 31 décembre 2026.');
    // The first of a month in French: « 1er », in both styles.
    expect(
      formatMessage('fr-CA', 'Votre accès a pris fin le {date, date, long}.', {
        date: '2026-05-01',
      }),
    ).toBe('Votre accès a pris fin le 1er mai 2026.');
    expect(
      formatMessage('fr-CA', 'du {start, date, medium} au {end, date, medium}', {
        start: '2031-09-01',
        end: '2031-12-15',
      }),
    ).toBe('du 1er sept. 2031 au 15 déc. 2031');
    expect(
      formatMessage('en', '{start, date, medium} to {end, date, medium}', {
        start: '2031-09-01',
        end: '2031-12-15',
      }),
    ).toBe('Sep 1, 2031 to Dec 15, 2031');
    // The day as the domain keeps it, whatever the time zone: never the day before.
    expect(formatMessage('en', '{d, date, long}', { d: '2026-01-01' })).toBe('January 1, 2026');
    expect(formatMessage('en', '{d, date, long}', { d: Date.UTC(2026, 0, 1, 23) })).toBe(
      'January 1, 2026',
    );
    // Anything else is shown as it came, never an error on the page.
    expect(formatMessage('en', '{d, date, long}', { d: 'soon' })).toBe('soon');
    expect(() => formatMessage('en', '{d, date, short}', { d: '2026-01-01' })).toThrow(SyntaxError);
  });

  it('formats every catalog message as intl-messageformat does, in both languages', () => {
    for (const locale of LANGUAGES) {
      for (const [id, text] of Object.entries(catalogs[locale])) {
        for (const value of [0, 1, 2, 5, 21, 1234.5, 'Ada']) {
          const params = paramsFor(text, value);
          expect(ours(locale, text, params), `${locale} ${id} with ${value}`).toBe(
            reference(locale, text, params),
          );
        }
        expect(ours(locale, text, {}), `${locale} ${id} without values`).toBe(
          reference(locale, text, {}),
        );
      }
    }
  });

  it('reads ICU syntax as intl-messageformat does', () => {
    const cases: [string, MessageParams][] = [
      ["It's {name}'s", { name: 'Ada' }],
      ["'{literal}' and '' and '#' {n, plural, one {'#' #} other {# '#'}}", { n: 3 }],
      ['{n, plural, offset:1 =0 {none} one {# other} other {# others}}', { n: 2 }],
      ['{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}', { n: 23 }],
      ['{kind, select, a {A {n, plural, one {# x} other {# xs}}} other {#}}', { kind: 'a', n: 1 }],
      ['{n, plural, one {{kind, select, a {# in a} other {x}}} other {y}}', { n: 1, kind: 'a' }],
      ['a } b <b>c</b> {n, number}', { n: 1234567.891 }],
      ['{ spaced , plural , =1 { one } other { many } }', { spaced: 1 }],
      ["unclosed 'quote {n}", { n: 1 }],
    ];
    for (const locale of LANGUAGES) {
      for (const [text, params] of cases) {
        expect(ours(locale, text, params), `${locale} ${text}`).toBe(
          reference(locale, text, params),
        );
      }
    }
  });

  it('throws on a missing value and on syntax the catalogs do not use', () => {
    expect(() => formatMessage('en', 'Hello {name}')).toThrow(/name/);
    expect(() => formatMessage('en', 'On {day, date, short}', { day: 0 })).toThrow(SyntaxError);
    expect(() => formatMessage('en', '{n, plural, one {x}}', { n: 1 })).toThrow(SyntaxError);
  });
});
