// The reader on a long book (issue 16, "Measured"): a 500-page EPUB (50 chapters of 18,000
// characters: 500 standard pages of 1,800) opened at its last position, in Chromium, against
// the built server on PostgreSQL. Targets: first text on screen <= 1 s, a page turn <= 100 ms.
//   npm run build
//   BENCH_DATABASE_URL=postgres://... npx tsx bench/reader-open.ts [--runs 5] [--turns 20]
//     [--chapters 50] [--highlights 0] [--notebook-open]
// With --chapters 100 the book has 1,000 standard pages; --highlights N gives the reader N
// highlights with notes spread over the chapters, as the notebook lists and paints them
// ("a real book of a thousand pages with a thousand highlights stays as fast").
// "First text" is the reader page's first contentful paint, its chapter text being written by
// the server; "at its place" is when the reader has laid the chapter out in pages after
// hydration and moved to the saved place (its status names the last chapter and its pages). A page turn is the time from the key press to the first
// frame painted after the reader's status changed; turns backwards from the middle of the last
// chapter, so some cross into the chapter before (fetched from the server).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { chromium } from 'playwright-core';
import { openDatabase } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { users } from '#db/schema/accounts.ts';
import { bookFiles } from '#db/schema/catalog.ts';
import { readingAnnotations, readingPositions } from '#db/schema/reading.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { buildEpub } from '#db/seed/content/epub.ts';
import { createUser } from '#domain/accounts/service.ts';
import { openEpub } from '#domain/reading/epub-publication.ts';
import { anchorOf } from '#domain/reading/text-anchor.ts';
import { insertProduct } from '#tests/builders.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const url = process.env.BENCH_DATABASE_URL;
if (!url) {
  console.error('Set BENCH_DATABASE_URL to a PostgreSQL database the benchmark may fill.');
  process.exit(2);
}
const runs = option('runs', 5);
const turns = option('turns', 20);
/** Turns the pages with the notebook's list open beside the text. */
const notebookOpen = args.includes('--notebook-open');
const port = 3293;
const base = `http://127.0.0.1:${port}`;
const CHAPTERS = option('chapters', 50);
const HIGHLIGHTS = option('highlights', 0);
const CHAPTER_CHARACTERS = 18_000;

// Prose-like text: sentences of common words, so line breaking and search behave as on a book.
const WORDS =
  'the cell membrane protein energy model system growth rate population theory data analysis method structure function process change result study form level example'.split(
    ' ',
  );
function paragraph(seed: number): string {
  const sentences: string[] = [];
  let length = 0;
  for (let s = 0; length < 700; s += 1) {
    const words = Array.from(
      { length: 12 + ((seed + s) % 9) },
      (_, w) => WORDS[(seed * 31 + s * 7 + w * 13) % WORDS.length],
    );
    const sentence = `${words.join(' ')}.`;
    sentences.push(sentence.charAt(0).toUpperCase() + sentence.slice(1));
    length += sentence.length + 1;
  }
  return sentences.join(' ');
}
const chapters = Array.from({ length: CHAPTERS }, (_, c) => {
  const paragraphs: string[] = [];
  for (let total = 0, p = 0; total < CHAPTER_CHARACTERS; p += 1) {
    const text = paragraph(c * 100 + p);
    paragraphs.push(text);
    total += text.length;
  }
  return { title: `Chapter ${c + 1}: Part ${c + 1} of the course`, paragraphs };
});
const epub = buildEpub({
  title: 'A Long Course Text',
  author: 'Bench Author',
  language: 'en',
  identifier: `urn:bench:${Date.now()}`,
  chapters,
});

const dataDir = mkdtempSync(path.join(tmpdir(), 'reader-bench-'));
mkdirSync(path.join(dataDir, 'files'));
const storagePath = 'files/long-book.epub';
writeFileSync(path.join(dataDir, storagePath), epub);

const database = await openDatabase({ url });
await migrateDatabase(database);
const productId = await insertProduct(
  database.db,
  { productFileType: 'EPUB', drmCopyPercent: '10', drmPrintPercent: '10' },
  { readerFile: false },
);
await database.db.insert(bookFiles).values({
  productId,
  title: 'A Long Course Text',
  extension: 'epub',
  type: 'READER',
  mediaType: 'application/epub+zip',
  storagePath,
  byteSize: epub.length,
  sha256: randomBytes(16).toString('hex'),
});
const email = `reader-bench-${Date.now()}@example.test`;
const password = 'reader-bench-pw-1';
const userId = await createUser(database.db, {
  email,
  password,
  firstName: 'Bench',
  lastName: 'Reader',
});
// A reader who has accepted the terms already (the EULA page comes first otherwise).
await database.db.update(users).set({ mustAcceptEula: false }).where(eq(users.id, userId));
await database.db.insert(ownerships).values({
  userId,
  productId,
  source: 'purchase',
  startsAt: new Date(Date.now() - 60_000),
});
// The reader's highlights: spread over every chapter, a note on every other one, anchored in
// the text the server renders (as the notebook makes them).
if (HIGHLIGHTS > 0) {
  const publication = openEpub(epub);
  const urls = { partHref: () => '#', imageUrl: () => '' };
  const texts = publication.parts.map((_, part) => publication.renderPart(part, urls).text);
  const rows = Array.from({ length: HIGHLIGHTS }, (_, n) => {
    const part = n % texts.length;
    const text = texts[part]!;
    const slot = Math.floor(n / texts.length);
    const start = (slot * 997 + 120) % Math.max(1, text.length - 200);
    const anchor = anchorOf(text, part, start, start + 60);
    return {
      userId,
      productId,
      kind: 'highlight',
      colour: (['yellow', 'green', 'blue', 'pink', 'purple'] as const)[n % 5],
      note: n % 2 === 0 ? `Note ${n}: remember this for the exam.` : null,
      part: anchor.part,
      startOffset: anchor.start,
      endOffset: anchor.end,
      exact: anchor.exact,
      prefix: anchor.prefix,
      suffix: anchor.suffix,
    };
  });
  for (let i = 0; i < rows.length; i += 500) {
    await database.db.insert(readingAnnotations).values(rows.slice(i, i + 500));
  }
}
async function placeAtEnd() {
  await database.db
    .insert(readingPositions)
    .values({ userId, productId, part: CHAPTERS - 1, progression: 0.5 })
    .onConflictDoUpdate({
      target: [readingPositions.userId, readingPositions.productId],
      set: { part: CHAPTERS - 1, progression: 0.5 },
    });
}

const server: ChildProcess = spawn(process.execPath, ['server.js'], {
  env: {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_ORIGIN: base,
    DEMO_DATA: 'off',
    LOG_LEVEL: 'warn',
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ACCESS_CODE_KEY: randomBytes(32).toString('hex'),
    LTI_KEY: randomBytes(32).toString('hex'),
    PAYMENTS: 'test',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/accounts/login/`)).status === 200) break;
  } catch {
    // starting
  }
  if (i > 300) throw new Error('the server did not start');
  await new Promise((resolve) => setTimeout(resolve, 200));
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
const firstText: number[] = [];
const painted: number[] = [];
const listed: number[] = [];
const atPlace: number[] = [];
const turnTimes: number[] = [];
try {
  for (let run = 0; run < runs; run += 1) {
    await placeAtEnd();
    const context = await browser.newContext({ baseURL: base });
    // Times kept by the page itself: when the status first names the last chapter, and for
    // each key press, the first frame after the status changed.
    await context.addInitScript((last: number) => {
      const w = window as unknown as {
        benchPlace?: number;
        benchPainted?: number;
        benchPoll: () => void;
        benchTurns: number[];
      };
      w.benchTurns = [];
      // When the chapter's highlights are first painted (CSS Custom Highlight API). A property,
      // not a named const: tsx would wrap a named function in a helper the page does not have.
      w.benchPoll = () => {
        if (typeof CSS !== 'undefined' && 'highlights' in CSS && CSS.highlights.size > 0)
          w.benchPainted = performance.now();
        else requestAnimationFrame(w.benchPoll);
      };
      requestAnimationFrame(w.benchPoll);
      let pressed: number | null = null;
      let shown = '';
      document.addEventListener(
        'keydown',
        () => {
          pressed = performance.now();
        },
        true,
      );
      new MutationObserver(() => {
        const status = [...document.querySelectorAll('output')].find((o) =>
          /^Page \d+ of \d+/.test(o.textContent ?? ''),
        );
        const text = status?.textContent ?? '';
        if (!text || text === shown) return;
        shown = text;
        if (
          w.benchPlace === undefined &&
          new RegExp(`^Page \\d+ of ([2-9]|\\d\\d+), Chapter ${last}:`).test(text)
        )
          w.benchPlace = performance.now();
        if (pressed !== null) {
          const started = pressed;
          pressed = null;
          requestAnimationFrame(() =>
            requestAnimationFrame(() => w.benchTurns.push(performance.now() - started)),
          );
        }
      }).observe(document, { subtree: true, childList: true, characterData: true });
    }, CHAPTERS);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1100, height: 800 });
    await page.goto('/accounts/login/');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/accounts/login'));
    await page.goto(`/book/read/${productId}`);
    await page
      .waitForFunction(() => (window as { benchPlace?: number }).benchPlace !== undefined)
      .catch(async (error) => {
        const said = await page.locator('output').allInnerTexts();
        throw new Error(
          `the reader did not reach chapter ${CHAPTERS} (${page.url()}: ${said.join(' | ')})`,
          {
            cause: error,
          },
        );
      });
    const timing = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      place: (window as unknown as { benchPlace: number }).benchPlace,
    }));
    firstText.push(timing.fcp);
    atPlace.push(timing.place);
    if (HIGHLIGHTS > 0) {
      await page.waitForFunction(
        () => (window as { benchPainted?: number }).benchPainted !== undefined,
      );
      const highlights = await page.evaluate(() => ({
        painted: (window as unknown as { benchPainted: number }).benchPainted,
        listed:
          performance
            .getEntriesByType('resource')
            .find((entry) => /\/annotations$/.test(new URL(entry.name).pathname))?.duration ?? NaN,
      }));
      painted.push(highlights.painted);
      listed.push(highlights.listed);
    }
    if (notebookOpen) {
      await page.locator('summary', { hasText: 'Notebook' }).click();
      await page.locator('.reader-notebook__list li').first().waitFor();
    }
    await page.locator('.reader__page .reader-text').focus();
    for (let turn = 0; turn < turns; turn += 1) {
      const before = await page.evaluate(
        () => (window as unknown as { benchTurns: number[] }).benchTurns.length,
      );
      await page.keyboard.press('ArrowLeft');
      await page.waitForFunction(
        (n) => (window as unknown as { benchTurns: number[] }).benchTurns.length > n,
        before,
      );
    }
    turnTimes.push(
      ...(await page.evaluate(() => (window as unknown as { benchTurns: number[] }).benchTurns)),
    );
    await context.close();
  }
} finally {
  await browser.close();
  server.kill();
  await database.close();
}

const ms = (n: number) => `${Math.round(n)} ms`;
console.log(
  `EPUB of ${CHAPTERS} chapters, ${CHAPTERS * CHAPTER_CHARACTERS} characters (${epub.length} bytes), opened ${runs} times at chapter ${CHAPTERS}:`,
);
console.log(
  `  first text (FCP): median ${ms(percentile(firstText, 50))}, max ${ms(Math.max(...firstText))}`,
);
console.log(
  `  at its place after hydration: median ${ms(percentile(atPlace, 50))}, max ${ms(Math.max(...atPlace))}`,
);
if (HIGHLIGHTS > 0) {
  console.log(
    `  ${HIGHLIGHTS} highlights: the notebook's list answered in median ${ms(percentile(listed, 50))} (max ${ms(Math.max(...listed))}); the chapter's painted at median ${ms(percentile(painted, 50))} after navigation (max ${ms(Math.max(...painted))})`,
  );
}
console.log(
  `  page turns (${turnTimes.length}): median ${ms(percentile(turnTimes, 50))}, p95 ${ms(percentile(turnTimes, 95))}, max ${ms(Math.max(...turnTimes))}`,
);
