import { createHash } from 'node:crypto';
import { SaxesParser } from 'saxes';
import type { MessageWording } from '#domain/shared/wording.ts';
import type { OnixElement } from './element.ts';
import { ONIX_2_NAMESPACES, referenceName } from './tags.ts';

// Reads an ONIX for Books feed as a stream (issue 15). The feed is cut at its Product
// boundaries and each Product is parsed on its own into an element tree under reference names,
// whatever tag style or namespace the feed uses. So a feed of any size reads in bounded memory,
// and malformed XML in one product (an unescaped '&' is the classic) spoils that product only:
// an XML parser that met it in one long document would lose its place for the rest of the feed.

export type OnixHeader = {
  release: string;
  senderName: string | null;
  defaultCurrency: string | null;
  defaultLanguage: string | null;
};

export type FeedEvent =
  | { kind: 'header'; header: OnixHeader }
  | {
      kind: 'product';
      product: OnixElement;
      line: number;
      readBytes: number;
      /** sha256 of the product's XML as written: the same record sent again is known. */
      digest: string;
    }
  /** A product the XML itself spoiled: refused with the line where the XML is malformed. */
  | { kind: 'malformed'; line: number; reference: string | null; readBytes: number };

/** The whole feed is refused: not XML, not ONIX, or not a version the store reads. */
export class FeedRefused extends Error {
  constructor(readonly reason: MessageWording) {
    super(reason.message);
  }
}

// A product larger than this is not a product: it is refused rather than held in memory.
const PRODUCT_CHAR_LIMIT = 4_000_000;
// The prolog, root tag and header must fit in this much text.
const HEAD_CHAR_LIMIT = 1_000_000;

// Elements that sit directly in an ONIX 2.1 Product and never in a 3.x one.
const ONIX_2_PRODUCT_CHILDREN = new Set(['Title', 'ProductForm', 'SupplyDetail', 'Contributor']);

const PRODUCT_START = /<(?:[A-Za-z_][\w.-]*:)?[Pp]roduct(?=[\s/>])/g;
const PRODUCT_END = /<\/(?:[A-Za-z_][\w.-]*:)?[Pp]roduct\s*>/g;
// '&' that does not begin an entity or character reference.
const BARE_AMPERSAND = /&(?![A-Za-z_][\w.-]*;|#\d+;|#x[0-9A-Fa-f]+;)/;

const localName = (tag: string) => tag.slice(tag.indexOf(':') + 1);
const countLines = (text: string, from = 0, to = text.length) => {
  let lines = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) {
    lines++;
  }
  return lines;
};

type Fragment = { root: OnixElement | null; errorLine: number | null };

/**
 * Parses one element's XML (a Product, the Header) into a tree. Markup inside a Text (an
 * XHTML description) is kept as text for the description's sanitiser.
 */
export function parseFragment(xml: string, firstLine: number): Fragment {
  const parser = new SaxesParser({ position: true });
  const stack: OnixElement[] = [];
  let root: OnixElement | null = null;
  let errorLine: number | null = null;
  let markupDepth = 0;
  const top = () => stack[stack.length - 1];

  parser.on('opentag', (tag) => {
    const parent = top();
    if (parent && (parent.name === 'Text' || markupDepth > 0)) {
      markupDepth++;
      parent.text += `<${localName(tag.name)}>`;
      return;
    }
    const attributes: Record<string, string> = {};
    for (const [key, value] of Object.entries(tag.attributes)) {
      attributes[localName(key)] = String(value);
    }
    const element: OnixElement = {
      name: referenceName(localName(tag.name)),
      attributes,
      text: '',
      children: [],
      line: firstLine + parser.line - 1,
    };
    if (parent) parent.children.push(element);
    else root ??= element;
    stack.push(element);
  });
  const onText = (text: string) => {
    const element = top();
    if (element) element.text += text;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag) => {
    if (markupDepth > 0) {
      markupDepth--;
      const element = top();
      if (element) element.text += `</${localName(tag.name)}>`;
      return;
    }
    stack.pop();
  });
  parser.on('error', () => {
    errorLine ??= firstLine + parser.line - 1;
  });
  parser.write(xml);
  parser.close();
  if (errorLine !== null) {
    // The parser notices some mistakes late (after an unescaped '&' it reads on to the next
    // ';'); the report names the line of the mistake itself when it can be found.
    const match = BARE_AMPERSAND.exec(xml);
    if (match) errorLine = Math.min(errorLine, firstLine + countLines(xml, 0, match.index));
  }
  return { root, errorLine };
}

function attribute(tag: string, name: string): string | null {
  return new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`).exec(tag)?.[1]?.trim() || null;
}

function encodingOf(head: Uint8Array): string {
  const text = new TextDecoder('latin1').decode(head.subarray(0, 200));
  const declared = /^\uFEFF?<\?xml[^>]*encoding=["']([A-Za-z0-9._-]+)["']/.exec(text)?.[1];
  const name = declared?.toLowerCase() ?? 'utf-8';
  return name === 'iso-8859-1' || name === 'latin1' ? 'windows-1252' : name;
}

const versionRefusal = (version: string) =>
  new FeedRefused({ message: 'import.feed.version', values: { version } });

/** Skips comments, CDATA, processing instructions and DOCTYPE from `at`; -1 when cut short. */
function skipMarkup(text: string, at: number): number {
  for (const [open, close] of [
    ['<!--', '-->'],
    ['<![CDATA[', ']]>'],
    ['<?', '?>'],
    ['<!', '>'],
  ] as const) {
    if (text.startsWith(open, at)) {
      const end = text.indexOf(close, at + open.length);
      return end === -1 ? -1 : end + close.length;
    }
  }
  return at;
}

/** The release, sender and defaults from the text before the first Product. */
function readHead(head: string, line: number): { header: OnixHeader; release: string | null } {
  let at = 0;
  let rootTag: string | null = null;
  while (at < head.length) {
    const lt = head.indexOf('<', at);
    if (lt === -1) break;
    if (
      lt > at &&
      head
        .slice(at, lt)
        .replace(/^\uFEFF/, '')
        .trim() !== ''
    )
      break;
    const skipped = skipMarkup(head, lt);
    if (skipped === -1) break;
    if (skipped !== lt) {
      at = skipped;
      continue;
    }
    const end = head.indexOf('>', lt);
    if (end === -1) break;
    rootTag = head.slice(lt, end + 1);
    break;
  }
  if (!rootTag || !/^<[A-Za-z_]/.test(rootTag)) {
    throw new FeedRefused({ message: 'import.feed.notXml', values: { line } });
  }
  const rootName = /^<([^\s/>]+)/.exec(rootTag)![1]!;
  if (referenceName(localName(rootName)) !== 'ONIXMessage') {
    throw new FeedRefused({ message: 'import.feed.notOnix', values: { root: rootName } });
  }
  const namespace = /\sxmlns(?::[\w.-]+)?\s*=\s*["']([^"']*)["']/.exec(rootTag)?.[1] ?? '';
  let release = attribute(rootTag, 'release');
  const doctype = /<!DOCTYPE[^>]*>/i.exec(head)?.[0] ?? '';
  if (release && !/^3\.[01]$/.test(release)) throw versionRefusal(release);
  if (
    !release &&
    (ONIX_2_NAMESPACES.has(namespace) || /onix\/2\.1|onix-international/i.test(doctype))
  ) {
    throw versionRefusal('2.1');
  }
  if (!release && /onix\/3\.1/.test(namespace)) release = '3.1';

  const header: OnixHeader = {
    release: release ?? '3.0',
    senderName: null,
    defaultCurrency: null,
    defaultLanguage: null,
  };
  const start = /<(?:[A-Za-z_][\w.-]*:)?[Hh]eader(?=[\s>])/.exec(head);
  const end = /<\/(?:[A-Za-z_][\w.-]*:)?[Hh]eader\s*>/.exec(head);
  if (start && end && end.index > start.index) {
    const { root } = parseFragment(head.slice(start.index, end.index + end[0].length), line);
    const child = (element: OnixElement | undefined, name: string) =>
      element?.children.find((c) => c.name === name);
    header.senderName =
      child(child(root ?? undefined, 'Sender'), 'SenderName')?.text.trim() || null;
    header.defaultCurrency = child(root ?? undefined, 'DefaultCurrencyCode')?.text.trim() || null;
    header.defaultLanguage = child(root ?? undefined, 'DefaultLanguageOfText')?.text.trim() || null;
  }
  return { header, release };
}

/**
 * The feed's events in document order: the header, then each product or a product the XML
 * spoiled. Throws FeedRefused when the feed as a whole cannot be imported.
 */
export async function* readOnixFeed(
  input: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<FeedEvent> {
  let decoder: TextDecoder | null = null;
  let buffer = '';
  // Line of buffer[0], and bytes read so far.
  let line = 1;
  let readBytes = 0;
  let headDone = false;
  let release: string | null = null;
  let scanAt = 0;

  const drop = (count: number) => {
    line += countLines(buffer, 0, count);
    buffer = buffer.slice(count);
    scanAt = 0;
  };

  /** Products complete in the buffer; `final` when no more text will come. */
  function* take(final: boolean): Generator<FeedEvent> {
    if (!headDone) {
      PRODUCT_START.lastIndex = 0;
      const first = PRODUCT_START.exec(buffer);
      if (!first && !final && buffer.length < HEAD_CHAR_LIMIT) return;
      const headEnd = first ? first.index : buffer.length;
      const head = readHead(buffer.slice(0, headEnd), line);
      release = head.release;
      headDone = true;
      yield { kind: 'header', header: head.header };
      drop(headEnd);
    }
    while (true) {
      // The next product start, past comments and CDATA between products.
      PRODUCT_START.lastIndex = scanAt;
      const start = PRODUCT_START.exec(buffer);
      if (!start) {
        // Keep a tail that might hold the start of a tag cut by the chunk boundary.
        if (!final) drop(Math.max(0, buffer.length - 64));
        return;
      }
      PRODUCT_END.lastIndex = start.index;
      const end = PRODUCT_END.exec(buffer);
      if (!end) {
        if (final) {
          // A feed cut short: the product it cut is refused at the last line.
          const text = buffer.slice(start.index);
          yield {
            kind: 'malformed',
            line: line + countLines(buffer),
            reference: referenceIn(text),
            readBytes,
          };
          drop(buffer.length);
        } else if (buffer.length - start.index > PRODUCT_CHAR_LIMIT) {
          yield {
            kind: 'malformed',
            line: line + countLines(buffer, 0, start.index),
            reference: referenceIn(buffer.slice(start.index)),
            readBytes,
          };
          drop(buffer.length);
        } else {
          drop(start.index);
        }
        return;
      }
      const firstLine = line + countLines(buffer, 0, start.index);
      const xml = buffer.slice(start.index, end.index + end[0].length);
      const { root, errorLine } = parseFragment(xml, firstLine);
      if (root && errorLine === null) {
        if (!release && root.children.some((c) => ONIX_2_PRODUCT_CHILDREN.has(c.name))) {
          throw versionRefusal('2.1');
        }
        const digest = createHash('sha256').update(xml).digest('base64url');
        yield { kind: 'product', product: root, line: firstLine, readBytes, digest };
      } else {
        yield {
          kind: 'malformed',
          line: errorLine ?? firstLine,
          reference: referenceIn(xml),
          readBytes,
        };
      }
      drop(end.index + end[0].length);
    }
  }

  for await (const chunk of input) {
    if (typeof chunk === 'string') {
      readBytes += Buffer.byteLength(chunk);
      buffer += chunk;
    } else {
      decoder ??= new TextDecoder(encodingOf(chunk), { fatal: false });
      readBytes += chunk.byteLength;
      buffer += decoder.decode(chunk, { stream: true });
    }
    yield* take(false);
  }
  if (decoder) buffer += decoder.decode();
  if (!headDone && buffer.trim() === '') {
    throw new FeedRefused({ message: 'import.feed.notXml', values: { line: 1 } });
  }
  yield* take(true);
}

/** The RecordReference of a product's raw XML, for the report of a spoiled one. */
function referenceIn(xml: string): string | null {
  const match = /<(?:[\w.-]+:)?(?:RecordReference|a001)\s*>([^<]{1,200})</.exec(xml);
  return match?.[1]?.trim() || null;
}
