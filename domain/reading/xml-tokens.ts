// A small XML tokenizer for EPUB package and content documents (XHTML). It never builds
// markup: callers re-create what they keep from these tokens, escaping every value, so a
// malformed or hostile document can only lose content, never inject any.

export type XmlToken =
  | { type: 'open'; name: string; attrs: Map<string, string>; selfClosing: boolean }
  | { type: 'close'; name: string }
  | { type: 'text'; text: string };

// The five XML entities, and the HTML ones books most often use although XHTML without a
// DTD does not define them.
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  shy: '\u00ad',
  ndash: '\u2013',
  mdash: '\u2014',
  hellip: '\u2026',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  laquo: '\u00ab',
  raquo: '\u00bb',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  bull: '\u2022',
  middot: '\u00b7',
  deg: '\u00b0',
  times: '\u00d7',
  eacute: '\u00e9',
  egrave: '\u00e8',
  agrave: '\u00e0',
  ccedil: '\u00e7',
};

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/g, (m, ref) => {
    if (ref[0] === '#') {
      const cp =
        ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      if (cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return '\ufffd';
      return String.fromCodePoint(cp);
    }
    return NAMED[ref] ?? m;
  });
}

const NAME = /[A-Za-z_][\w.:-]*/y;
const ATTRIBUTE = /\s*([A-Za-z_][\w.:-]*)\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>/=`]+)))?/y;

/** The tokens of an XML document, in order; what cannot be read as markup becomes text. */
export function* xmlTokens(source: string): Generator<XmlToken> {
  let i = 0;
  const n = source.length;
  while (i < n) {
    const lt = source.indexOf('<', i);
    if (lt < 0) {
      yield { type: 'text', text: decodeEntities(source.slice(i)) };
      return;
    }
    if (lt > i) yield { type: 'text', text: decodeEntities(source.slice(i, lt)) };
    i = lt;
    if (source.startsWith('<!--', i)) {
      const end = source.indexOf('-->', i + 4);
      i = end < 0 ? n : end + 3;
    } else if (source.startsWith('<![CDATA[', i)) {
      const end = source.indexOf(']]>', i + 9);
      yield { type: 'text', text: source.slice(i + 9, end < 0 ? n : end) };
      i = end < 0 ? n : end + 3;
    } else if (source.startsWith('<?', i)) {
      const end = source.indexOf('?>', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (source.startsWith('<!', i)) {
      // DOCTYPE: internal subsets are not read (no entity definitions, no expansion).
      const end = source.indexOf('>', i + 2);
      i = end < 0 ? n : end + 1;
    } else if (source[i + 1] === '/') {
      NAME.lastIndex = i + 2;
      const match = NAME.exec(source);
      const end = source.indexOf('>', i + 2);
      if (!match || end < 0) {
        yield { type: 'text', text: '<' };
        i += 1;
        continue;
      }
      yield { type: 'close', name: match[0] };
      i = end + 1;
    } else {
      NAME.lastIndex = i + 1;
      const match = NAME.exec(source);
      if (!match) {
        yield { type: 'text', text: '<' };
        i += 1;
        continue;
      }
      const attrs = new Map<string, string>();
      let at = NAME.lastIndex;
      for (;;) {
        ATTRIBUTE.lastIndex = at;
        const attr = ATTRIBUTE.exec(source);
        if (!attr || attr[0].length === 0) break;
        if (!attrs.has(attr[1]!)) {
          attrs.set(attr[1]!, decodeEntities(attr[2] ?? attr[3] ?? attr[4] ?? ''));
        }
        at = ATTRIBUTE.lastIndex;
      }
      while (at < n && /\s/.test(source[at]!)) at += 1;
      const selfClosing = source[at] === '/';
      const end = source.indexOf('>', at);
      if (end < 0) return;
      yield { type: 'open', name: match[0], attrs, selfClosing };
      i = end + 1;
    }
  }
}

/** The local name of a possibly prefixed XML name, lower-cased: `epub:type` → `type`. */
export function localName(name: string): string {
  const colon = name.lastIndexOf(':');
  return (colon < 0 ? name : name.slice(colon + 1)).toLowerCase();
}
