import type { Locale } from '#domain/accounts/language.ts';
import { type DayStyle, formatDay } from './format-day.ts';

export type MessageParams = Record<string, string | number>;

/**
 * The ICU MessageFormat our catalogs use, formatted as intl-messageformat formats it (with
 * `ignoreTag`): arguments `{name}` and `{n, number}`, `plural` and `selectordinal` with `=N`
 * cases, plural categories, `offset:` and `#`, `select`, `{name, date, long}` and
 * `{name, date, medium}` (format-day.ts: French writes « 1er »), and ICU quoting (`''` is an
 * apostrophe, `'{…}'` is literal text). Anything else (other date styles, number skeletons) is refused
 * when parsed; format-message.test.ts checks every catalog message against intl-messageformat.
 *
 * Our own, rather than intl-messageformat's parser and formatters, because the browser runs it
 * too: it is about 1 kB gzipped where they were 13 (issue 13, the JavaScript budget). The server's
 * translate() and the pages' useT() both come here, so a page hydrates with the server's text.
 */
type Part =
  | string
  | { kind: 'argument'; name: string; number: boolean }
  | { kind: 'date'; name: string; style: DayStyle }
  | { kind: 'pound' }
  | {
      kind: 'plural';
      name: string;
      ordinal: boolean;
      offset: number;
      options: Record<string, Part[]>;
    }
  | { kind: 'select'; name: string; options: Record<string, Part[]> };

type Context = 'top' | 'plural' | 'select';

class Parser {
  private at = 0;

  constructor(private readonly text: string) {}

  parse(): Part[] {
    return this.message('top');
  }

  /** Text and arguments until the `}` that closes an option (left for the caller) or the end. */
  private message(context: Context): Part[] {
    const parts: Part[] = [];
    let literal = '';
    const flush = () => {
      if (literal) parts.push(literal);
      literal = '';
    };
    while (this.at < this.text.length) {
      const char = this.text[this.at]!;
      // A `}` outside any argument is text, as intl-messageformat reads it.
      if (char === '}' && context !== 'top') break;
      if (char === '{') {
        flush();
        parts.push(this.argument());
      } else if (char === '#' && context === 'plural') {
        flush();
        parts.push({ kind: 'pound' });
        this.at += 1;
      } else if (char === "'") {
        literal += this.quoted(context);
      } else {
        literal += char;
        this.at += 1;
      }
    }
    flush();
    return parts;
  }

  /** An apostrophe: `''`, a quoted run, or itself (ICU's DOUBLE_OPTIONAL apostrophe mode). */
  private quoted(context: Context): string {
    const next = this.text[this.at + 1];
    if (next === "'") {
      this.at += 2;
      return "'";
    }
    const opensQuote =
      next === '{' ||
      next === '}' ||
      next === '<' ||
      next === '>' ||
      (next === '#' && context === 'plural');
    if (!opensQuote) {
      this.at += 1;
      return "'";
    }
    let text = '';
    this.at += 1;
    while (this.at < this.text.length) {
      const char = this.text[this.at]!;
      if (char === "'") {
        if (this.text[this.at + 1] === "'") {
          text += "'";
          this.at += 2;
          continue;
        }
        this.at += 1;
        return text;
      }
      text += char;
      this.at += 1;
    }
    return text;
  }

  private argument(): Part {
    this.at += 1;
    this.space();
    const name = this.word();
    if (!name) this.fail('an argument without a name');
    this.space();
    if (this.eat('}')) return { kind: 'argument', name, number: false };
    this.expect(',');
    this.space();
    const type = this.word();
    this.space();
    if (type === 'number') {
      this.expect('}');
      return { kind: 'argument', name, number: true };
    }
    if (type === 'date') {
      this.expect(',');
      this.space();
      const style = this.word();
      if (style !== 'long' && style !== 'medium') {
        this.fail("a date style other than 'long' or 'medium'");
      }
      this.space();
      this.expect('}');
      return { kind: 'date', name, style };
    }
    if (type !== 'plural' && type !== 'selectordinal' && type !== 'select') {
      this.fail(`the argument type '${type}' (not used by our catalogs)`);
    }
    this.expect(',');
    this.space();
    let offset = 0;
    if (type !== 'select' && this.text.startsWith('offset:', this.at)) {
      this.at += 'offset:'.length;
      this.space();
      offset = Number(this.word());
      if (!Number.isInteger(offset)) this.fail('a bad offset');
      this.space();
    }
    const options: Record<string, Part[]> = {};
    while (!this.eat('}')) {
      const selector = this.word();
      if (!selector) this.fail('an option without a selector');
      this.space();
      this.expect('{');
      options[selector] = this.message(type === 'select' ? 'select' : 'plural');
      this.expect('}');
      this.space();
    }
    if (!options.other) this.fail(`a ${type} without 'other'`);
    return type === 'select'
      ? { kind: 'select', name, options }
      : { kind: 'plural', name, ordinal: type === 'selectordinal', offset, options };
  }

  private word(): string {
    const start = this.at;
    while (this.at < this.text.length && !/[\s,{}#']/.test(this.text[this.at]!)) this.at += 1;
    return this.text.slice(start, this.at);
  }

  private space(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at]!)) this.at += 1;
  }

  private eat(char: string): boolean {
    if (this.text[this.at] !== char) return false;
    this.at += 1;
    return true;
  }

  private expect(char: string): void {
    if (!this.eat(char)) this.fail(`'${char}' expected`);
  }

  private fail(what: string): never {
    throw new SyntaxError(`Message "${this.text}": ${what} at ${this.at}`);
  }
}

const parsed = new Map<string, Part[]>();
const numberFormats = new Map<string, Intl.NumberFormat>();
const pluralRules = new Map<string, Intl.PluralRules>();

function numberFormat(locale: Locale): Intl.NumberFormat {
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale);
    numberFormats.set(locale, format);
  }
  return format;
}

function pluralRule(locale: Locale, ordinal: boolean): Intl.PluralRules {
  const key = `${locale}:${ordinal}`;
  let rules = pluralRules.get(key);
  if (!rules) {
    rules = new Intl.PluralRules(locale, { type: ordinal ? 'ordinal' : 'cardinal' });
    pluralRules.set(key, rules);
  }
  return rules;
}

function argumentValue(params: MessageParams | undefined, name: string, text: string) {
  if (!params || !(name in params)) {
    throw new Error(`Message "${text}": the value of '${name}' was not given`);
  }
  return params[name]!;
}

function render(
  parts: Part[],
  locale: Locale,
  params: MessageParams | undefined,
  text: string,
  pound: number | null,
): string {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      out += part;
    } else if (part.kind === 'pound') {
      out += pound === null ? '#' : numberFormat(locale).format(pound);
    } else if (part.kind === 'date') {
      out += formatDay(locale, argumentValue(params, part.name, text), part.style);
    } else if (part.kind === 'argument') {
      const value = argumentValue(params, part.name, text);
      out += part.number ? numberFormat(locale).format(Number(value)) : String(value);
    } else if (part.kind === 'select') {
      const value = String(argumentValue(params, part.name, text));
      const chosen = Object.hasOwn(part.options, value)
        ? part.options[value]!
        : part.options.other!;
      out += render(chosen, locale, params, text, pound);
    } else {
      const value = Number(argumentValue(params, part.name, text));
      const exact = part.options[`=${value}`];
      const chosen =
        exact ??
        part.options[pluralRule(locale, part.ordinal).select(value - part.offset)] ??
        part.options.other!;
      out += render(chosen, locale, params, text, value - part.offset);
    }
  }
  return out;
}

/** Formats one ICU message text of a catalog; a missing value throws, as intl-messageformat does. */
export function formatMessage(locale: Locale, text: string, params?: MessageParams): string {
  // Most messages are plain text: no ICU syntax to interpret (a hundred cards ask for four each).
  if (!text.includes('{') && !text.includes("'")) return text;
  let parts = parsed.get(text);
  if (!parts) {
    parts = new Parser(text).parse();
    parsed.set(text, parts);
  }
  return render(parts, locale, params, text, null);
}
