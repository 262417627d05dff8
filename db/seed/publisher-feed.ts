// The demo's publisher feed (issue 15). Besides the store's own catalogue (courseware,
// classrooms, collections, rentals: what no ONIX feed carries), the demo seed writes what a
// publisher sends a bookstore: an ONIX 3.0 feed of trade books, the e-books' EPUB files and
// cover images. It then imports them through the path an operator's feed takes
// (domain/catalog/feed-file-import.ts, as `npm run catalog:import` does), so that path runs on
// every fresh start and at every seed size, a million products included.
import { once } from 'node:events';
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import type { Queryable } from '#db/client.ts';
import { importFeedFile } from '#domain/catalog/feed-file-import.ts';
import { isbn13CheckDigit } from '#domain/catalog/isbn.ts';
import type { BookFileStore } from '#domain/reading/file-store.ts';
import { buildProduct, type CatalogContext, planOf } from './catalog.ts';
import { coverSvg } from './content/cover-svg.ts';
import { buildEpub } from './content/epub.ts';
import { buildFixedLayoutEpub } from './content/fixed-layout-epub.ts';
import { ONIX_FOOTER, onixHeader, onixProduct } from './onix-feed.ts';

/** E-books in the feed, each with its EPUB and a cover image; the others are paperbacks. */
export const FEED_EBOOKS = 12;
/**
 * The feed's second e-book is a fixed-layout picture book (issue 16): its pages are drawn at
 * 600×800 and shown whole, two side by side on a wide screen (tests/e2e fixture
 * `/feed-picture-book`).
 */
export const PICTURE_BOOK_POSITION = 1;

const PICTURE_COLOURS = ['#2563eb', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6', '#0ea5e9'];

function pictureBookEpub(book: { isbn: string; title: string }, author: string): Buffer {
  const scenes = [
    'A quiet library before the students arrive.',
    'The first reader opens a book by the window.',
    'Pages turn; a map of the world unfolds.',
    'Two friends compare their notes at a table.',
    'The lights go down; one lamp is still on.',
  ];
  return buildFixedLayoutEpub({
    title: book.title,
    author,
    language: 'en',
    identifier: book.isbn,
    pages: [
      { text: '', alt: `The cover of ${book.title}`, colour: PICTURE_COLOURS[0]! },
      ...scenes.map((text, i) => ({
        text,
        alt: `A painting: ${text.toLowerCase()}`,
        colour: PICTURE_COLOURS[(i + 1) % PICTURE_COLOURS.length]!,
      })),
    ],
    // Drawn in SVG by itself, as picture books' last pages often are.
    backCover: {
      text: 'The End',
      alt: 'A lamp by an open book, the night outside the window',
      colour: '#1e3a8a',
    },
  });
}
/** Paperbacks that also come with a cover image. */
const PRINT_COVERS = 12;
/** A feed this small stays in the data directory as an example (data/demo-feed/). */
const KEEP_FEED_UP_TO = 1_000;

export const DEMO_FEED_SENDER = 'Shelfmark Demo Publishers';

/** A tenth of the catalogue comes from the feed: at least its e-books and covered paperbacks. */
export function publisherFeedSize(productCount: number): number {
  return Math.min(100_000, Math.max(FEED_EBOOKS + PRINT_COVERS, Math.round(productCount / 10)));
}

/** Record references and ISBNs the store's own catalogue never uses (979-8-9…). */
export function demoFeedIsbn(index: number): string {
  const body = `97989${String(index).padStart(7, '0')}`;
  return body + isbn13CheckDigit(body);
}

/**
 * What a real textbook's pages carry besides prose (issue 16, faithful pages): a formula in
 * MathML with its TeX, a chart drawn in SVG with a title, a footnote (EPUB 3 noteref and
 * footnote) and the printed edition's page breaks (pages 12 and 13), so the demo's reader shows
 * each of them and goes to a printed page.
 */
const WORKED_EXAMPLE = {
  title: 'Worked example',
  paragraphs: ['Growth that doubles each period follows a simple formula.'],
  xhtml: `    <span epub:type="pagebreak" role="doc-pagebreak" id="page-12" title="12"></span>
    <div class="worked-example"><p>After <i>n</i> periods a quantity <i>P</i> has grown to
      <math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><semantics><mrow><msub><mi>P</mi><mi>n</mi></msub><mo>=</mo><mi>P</mi><mo>&#x22C5;</mo><msup><mn>2</mn><mi>n</mi></msup></mrow><annotation encoding="application/x-tex">P_n = P \\cdot 2^n</annotation></semantics></math>
      as first noted by the bankers of the period.<a epub:type="noteref" href="#note-1" id="ref-1">1</a></p></div>
    <span epub:type="pagebreak" role="doc-pagebreak" id="page-13" title="13"></span>
    <figure>
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" width="400" height="200" role="img" aria-labelledby="growth-title">
        <title id="growth-title">Doubling: 1, 2, 4, 8 over four periods</title>
        <path d="M10,90 H190 M10,90 V10" stroke="#444" fill="none"/>
        <polyline points="10,88 60,84 110,76 160,60" fill="none" style="stroke:#1d4e89;stroke-width:3"/>
      </svg>
      <figcaption>Figure 1. Doubling over four periods.</figcaption>
    </figure>
    <aside epub:type="footnote" id="note-1"><p><a epub:type="backlink" href="#ref-1">1.</a> Compound interest tables were printed as early as 1613.</p></aside>`,
};

/**
 * The textbook's own typography (issue 16, the publisher's styling): its headings in a font it
 * embeds, obfuscated as publishers ship fonts, and its worked example on graph paper drawn by
 * a background picture. The font is Liberation Sans (SIL Open Font License 1.1), which pdf.js
 * already ships (pdfjs-dist/standard_fonts); an embedded, unmodified copy is what the licence
 * allows. The reader renames the family (b-…), so the test sees the book's copy, never one
 * installed on the machine.
 */
let bookFont: Buffer | null = null;
function textbookResources() {
  bookFont ??= readFileSync(
    createRequire(import.meta.url).resolve('pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf'),
  );
  return {
    resources: [
      { href: 'fonts/LiberationSans-Regular.ttf', mediaType: 'font/ttf', data: bookFont },
      {
        href: 'images/graph-paper.svg',
        mediaType: 'image/svg+xml',
        data: '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><path d="M0 .5H16M.5 0V16" stroke="#1d4e89" stroke-opacity=".14" fill="none"/></svg>',
      },
    ],
    stylesheet: `@font-face { font-family: "Liberation Sans"; font-weight: normal; src: url(fonts/LiberationSans-Regular.ttf) format("truetype"); }
h1 { font-family: "Liberation Sans", sans-serif; }
.worked-example { background: url(images/graph-paper.svg) repeat; }
`,
  };
}

// Accessibility an EPUB of ours has (ONIX code list 196): reflowable text (36) readable without
// sight (52), navigable, with ARIA roles (30: doc-pagebreak, an SVG chart as img).
const EPUB_ACCESSIBILITY = ['10', '11', '22', '30', '36', '52'];
// The picture book's pages are drawn at a fixed size (E201): its text cannot be restyled (no
// 36), as its record says (issue 38).
const PICTURE_BOOK_ACCESSIBILITY = EPUB_ACCESSIBILITY.filter((code) => code !== '36');
// What the textbook's package declares (EPUB Accessibility 1.1 §2.2), as its pages have it:
// reflowable text, MathML, the printed edition's page breaks, ARIA roles.
const TEXTBOOK_FEATURES = [
  'displayTransformability',
  'tableOfContents',
  'readingOrder',
  'structuralNavigation',
  'MathML',
  'pageBreakMarkers',
  'aria',
];

type FeedBook = {
  index: number;
  isbn: string;
  ebook: boolean;
  /** A fixed-layout picture book (issue 16) instead of the reflowable textbook. */
  pictureBook: boolean;
  title: string;
  authors: string[];
  description: string;
};

function feedBook(
  position: number,
  index: number,
  ctx: CatalogContext,
  codeOf: ReadonlyMap<number, string>,
): { text: string; book: FeedBook } {
  const ebook = position < FEED_EBOOKS;
  const plan = {
    ...planOf(index),
    type: 'book' as const,
    kind: ebook ? ('digital' as const) : ('print_only' as const),
    fileType: ebook ? ('EPUB' as const) : null,
    status: 'active' as const,
    isDisabled: false,
    blockedCountries: [],
    blockedHosts: [],
    categoryCode: null,
  };
  const built = buildProduct(plan, ctx);
  const p = built.product;
  const isbn = demoFeedIsbn(index);
  const authors = String(p.authors ?? '')
    .split(', ')
    .filter(Boolean);
  const prices = built.offerings
    .map((o) => Number(o.price_cents))
    .filter((cents) => Number.isInteger(cents) && cents > 0);
  const title = String(p.title);
  const description = String(p.description ?? '');
  const text = onixProduct({
    reference: `shelfmark.demo.${index}`,
    isbn13: isbn,
    format: ebook ? 'EPUB' : 'print',
    title,
    subtitle: (p.subtitle as string | null) ?? null,
    contributors: authors.map((name, i) => ({ name, role: i < 2 ? 'A01' : 'B01' })),
    publisher: String(p.publisher),
    language: 'eng',
    editionNumber: (p.edition_number as number | null) ?? null,
    pages: (p.num_pages as number | null) ?? null,
    publicationDate: p.publish_year ? `${p.publish_year}0901` : null,
    bisac: built.categories
      .map((c) => codeOf.get(Number(c.category_id)))
      .filter((code): code is string => code !== undefined),
    description,
    priceCents: prices.length > 0 ? Math.min(...prices) : 2999,
    fixedFormat: position === PICTURE_BOOK_POSITION,
    accessibility: !ebook
      ? []
      : position === PICTURE_BOOK_POSITION
        ? PICTURE_BOOK_ACCESSIBILITY
        : EPUB_ACCESSIBILITY,
    fileName: ebook ? `${isbn}.epub` : null,
  });
  return {
    text,
    book: {
      index,
      isbn,
      ebook,
      pictureBook: position === PICTURE_BOOK_POSITION,
      title,
      authors,
      description,
    },
  };
}

async function writeBookFiles(dir: string, book: FeedBook, withCover: boolean): Promise<void> {
  const author = book.authors.join(', ') || DEMO_FEED_SENDER;
  if (book.pictureBook) {
    await writeFile(path.join(dir, `${book.isbn}.epub`), pictureBookEpub(book, author));
  } else if (book.ebook) {
    const sentences = book.description.split(/(?<=\.)\s+/).filter(Boolean);
    await writeFile(
      path.join(dir, `${book.isbn}.epub`),
      buildEpub({
        title: book.title,
        author,
        language: 'en',
        identifier: book.isbn,
        publisher: DEMO_FEED_SENDER,
        accessibilitySummary:
          'This publication meets WCAG 2.1 Level AA. Its formula is MathML with a TeX description, ' +
          'its chart has a text title and a caption, its note is linked from the text and back, ' +
          'and every chapter has a heading, so it works with screen readers and reflowable display settings.',
        accessibilityFeatures: TEXTBOOK_FEATURES,
        ...textbookResources(),
        chapters: [
          { title: 'Introduction', paragraphs: sentences.length > 0 ? sentences : [book.title] },
          WORKED_EXAMPLE,
          { title: 'Further reading', paragraphs: [`${book.title}, by ${author}.`] },
        ],
      }),
    );
  }
  if (withCover) {
    // The publisher's cover: a photograph-sized JPEG, drawn here from the demo's cover art.
    const svg = coverSvg({ title: book.title, author, type: 'book', seed: book.index + 7 });
    await sharp(Buffer.from(svg), { density: 108 })
      .resize({ width: 600, height: 900, fit: 'fill' })
      .jpeg({ quality: 82 })
      .toFile(path.join(dir, `${book.isbn}.jpg`));
  }
}

export type PublisherFeedResult = {
  products: number;
  created: number;
  refused: number;
  filesAttached: number;
  filesRefused: number;
};

/**
 * Writes the demo publisher's feed of `count` books (catalogue indexes from `firstIndex`) with
 * its files into `dataDir/demo-feed/`, and imports it.
 */
export async function seedPublisherFeed(
  db: Queryable,
  store: BookFileStore,
  options: {
    dataDir: string;
    count: number;
    firstIndex: number;
    ctx: CatalogContext;
    log: (line: string) => void;
  },
): Promise<PublisherFeedResult> {
  const dir = path.join(options.dataDir, 'demo-feed');
  const filesDir = path.join(dir, 'files');
  await rm(dir, { recursive: true, force: true });
  await mkdir(filesDir, { recursive: true });
  const codeOf = new Map([...options.ctx.categoryIds].map(([code, id]) => [id, code]));
  const feedPath = path.join(dir, 'feed.xml');
  const out = createWriteStream(feedPath);
  out.write(onixHeader(DEMO_FEED_SENDER, options.ctx.now));
  for (let position = 0; position < options.count; position++) {
    const { text, book } = feedBook(position, options.firstIndex + position, options.ctx, codeOf);
    if (!out.write(text)) await once(out, 'drain');
    if (position < FEED_EBOOKS + PRINT_COVERS) await writeBookFiles(filesDir, book, true);
  }
  out.end(ONIX_FOOTER);
  await once(out, 'finish');

  const { report, files } = await importFeedFile(db, store, {
    feedPath,
    filesDir,
    source: 'seed',
    now: options.ctx.now,
    workDir: options.dataDir,
  });
  if (options.count > KEEP_FEED_UP_TO) await rm(dir, { recursive: true, force: true });
  options.log(
    `demo seed: publisher feed of ${options.count} books imported (${report.created} new, ${report.refused} refused; ${files?.attached ?? 0} files and covers)`,
  );
  return {
    products: report.records,
    created: report.created,
    refused: report.refused,
    filesAttached: files?.attached ?? 0,
    filesRefused: files?.refused ?? 0,
  };
}
