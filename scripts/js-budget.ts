// The JavaScript a phone downloads on a first visit of the home, search and product pages,
// gzipped, against the budget of issue 13 ("Fast on a phone"). Reads the built client: run
// `npm run build` first. It starts the built server on a fresh demo database and opens each
// page in headless Chromium with an empty cache, in English and in French, and counts every
// script the page asks for until it has hydrated and gone quiet (the entry, the root and route
// modules, their static imports, what the entry loads before hydrating, anything loaded right
// after), plus anything the HTML preloads that the browser had not asked for.
// Each file is gzipped at level 9 and summed; exits 1 when a page is over the budget.
//
//   npm run budget                 (CHROMIUM_PATH: another Chromium)
//   DEMO_BASE_URL=http://127.0.0.1:3000 npm run budget   # a server already running
//   npm run budget -- --files      (also lists each page's files)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { demoServer } from './demo-server.ts';

/** Issue 13, "Fast on a phone": at most 120 kB of gzipped JavaScript on these pages. */
export const BUDGET_BYTES = 120_000;

/** A page is measured once it has hydrated and asked for no script for this long. */
const QUIET_MS = 1000;

const LOCALES = [
  { name: 'en', acceptLanguage: 'en-US,en;q=0.9' },
  { name: 'fr-CA', acceptLanguage: 'fr-CA,fr;q=0.9' },
] as const;

const clientDir = path.resolve('build/client');
if (!existsSync(path.join(clientDir, 'assets'))) {
  console.error('No build/client/assets: run `npm run build` first.');
  process.exit(1);
}

/** Same-origin script URLs the HTML names: script src, module preloads, inline imports. */
function scriptsInHtml(html: string): string[] {
  const urls = new Set<string>();
  for (const tag of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const text = tag[0];
    const isPreload = /\brel="modulepreload"/.test(text);
    const url = /\b(?:src|href)="([^"]+)"/.exec(text)?.[1];
    if (url && (text.startsWith('<script') || isPreload)) urls.add(url);
  }
  for (const inline of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
    const body = inline[1] ?? '';
    for (const specifier of body.matchAll(/import\s*(?:\(\s*)?["']([^"']+\.js)["']/g))
      urls.add(specifier[1]!);
  }
  return [...urls].filter((url) => url.startsWith('/'));
}

function gzippedSize(urlPath: string): number {
  const file = path.join(clientDir, decodeURIComponent(urlPath.split('?')[0]!));
  if (!file.startsWith(clientDir) || !existsSync(file))
    throw new Error(`${urlPath} is not in build/client: is the build current?`);
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

const errors: string[] = [];

type Row = {
  page: string;
  locale: string;
  path: string;
  files: string[];
  raw: number;
  gzip: number;
  /** The page's messages in its HTML, gzipped alone (informative, not in the budget). */
  messages: number;
};

async function measure(): Promise<Row[]> {
  const { base, stop } = await demoServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const home = await (await fetch(`${base}/`)).text();
    // A book if there is one (its page has the most parts: tabs, files, the wallet).
    const productPath = (/href="(\/book\/\d+\/[^"]+)"/.exec(home) ??
      /href="(\/(?:courseware|classroom|collection)\/\d+\/[^"]+)"/.exec(home))?.[1];
    if (!productPath) throw new Error('no product linked from the home page');
    const pages = [
      { page: 'home', path: '/' },
      { page: 'search', path: '/search?terms=biology' },
      { page: 'product', path: productPath },
    ];
    const rows: Row[] = [];
    for (const { name: locale, acceptLanguage } of LOCALES) {
      for (const { page, path: pagePath } of pages) {
        // A new context: an empty cache and no cookies, a first visit.
        const context = await browser.newContext({
          locale,
          extraHTTPHeaders: { 'Accept-Language': acceptLanguage },
        });
        const tab = await context.newPage();
        // A page that fails (a hydration error, say) does not count as measured.
        tab.on('pageerror', (error) => errors.push(`${page} (${locale}): ${error.message}`));
        tab.on('console', (message) => {
          if (message.type() === 'error') errors.push(`${page} (${locale}): ${message.text()}`);
        });
        const loaded = new Set<string>();
        let lastScript = Date.now();
        tab.on('request', (request) => {
          const url = new URL(request.url());
          if (url.origin !== base || !url.pathname.endsWith('.js')) return;
          loaded.add(url.pathname);
          lastScript = Date.now();
        });
        const response = await tab.goto(`${base}${pagePath}`);
        if (!response?.ok()) throw new Error(`${pagePath} answered ${response?.status()}`);
        await tab.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
        // What a page fetches by itself just after hydrating counts too: wait for a quiet second.
        while (Date.now() - lastScript < QUIET_MS) await tab.waitForTimeout(100);
        const lang = await tab.evaluate(() => document.documentElement.lang);
        if (lang !== locale) throw new Error(`${pagePath} came in ${lang}, not ${locale}`);
        const html = await response.text();
        for (const url of scriptsInHtml(html)) loaded.add(url);
        // Not JavaScript, but moved out of it: the messages the page carries (web/i18n/catalog.ts).
        const messages =
          /<script type="application\/json" id="page-messages">([\s\S]*?)<\/script>/.exec(
            html,
          )?.[1] ?? '';
        await context.close();
        const raw = [...loaded].reduce(
          (sum, url) => sum + readFileSync(path.join(clientDir, url)).length,
          0,
        );
        const gzip = [...loaded].reduce((sum, url) => sum + gzippedSize(url), 0);
        rows.push({
          page,
          locale,
          path: pagePath,
          files: [...loaded].sort(),
          raw,
          gzip,
          messages: gzipSync(messages, { level: 9 }).length,
        });
      }
    }
    return rows;
  } finally {
    await browser.close();
    await stop();
  }
}

const kB = (bytes: number) => (bytes / 1000).toFixed(1);
const rows = await measure();
console.log(`\nJavaScript on a first visit (gzip -9), budget ${kB(BUDGET_BYTES)} kB (issue 13)\n`);
console.log(
  '| page | locale | path | files | raw kB | gzip kB | | messages in the HTML, gzip kB |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  const verdict = row.gzip <= BUDGET_BYTES ? 'ok' : 'OVER';
  console.log(
    `| ${row.page} | ${row.locale} | ${row.path} | ${row.files.length} | ${kB(row.raw)} | ${kB(row.gzip)} | ${verdict} | ${kB(row.messages)} |`,
  );
}
if (process.argv.includes('--files')) {
  for (const row of rows) {
    console.log(`\n${row.page} (${row.locale}):`);
    for (const file of row.files) console.log(`  ${kB(gzippedSize(file)).padStart(6)} kB  ${file}`);
  }
}
if (errors.length > 0) {
  console.error(`\nThe pages logged errors:\n${errors.join('\n')}`);
  process.exit(1);
}
// The database layer never runs in a browser. A page that imports a value from a module that
// also holds queries (a rule beside its SQL form, a constant beside a query) ships drizzle and
// the table declarations: issue 19's product page went 12 kB over this way. Checked on every
// chunk of the build, not only these three pages.
const withDatabase = readdirSync(path.join(clientDir, 'assets'))
  .filter((file) => file.endsWith('.js'))
  .filter((file) =>
    readFileSync(path.join(clientDir, 'assets', file), 'utf8').includes('drizzle:entityKind'),
  );
if (withDatabase.length > 0) {
  console.error(
    `\nThese browser chunks carry drizzle (the database layer): ${withDatabase.join(', ')}.` +
      ' Move what the page uses into a module without queries.',
  );
  process.exit(1);
}
// Every script of a first visit carries V8's compile hint (vite.config.ts, compileHints): it is
// compiled while it downloads, off the main thread. A chunk a page needs at once that lost it
// (a new manual chunk, a changed build step) costs a phone its first tap.
const unhinted = [...new Set(rows.flatMap((row) => row.files))]
  .filter((file) => file.startsWith('/assets/'))
  .filter(
    (file) =>
      !readFileSync(path.join(clientDir, file.split('?')[0]!), 'utf8').startsWith(
        '//# allFunctionsCalledOnLoad\n',
      ),
  );
if (unhinted.length > 0) {
  console.error(
    `\nThese scripts of a first visit lack the compile hint: ${unhinted.join(', ')}. ` +
      'See compileHints in vite.config.ts.',
  );
  process.exit(1);
}
const over = rows.filter((row) => row.gzip > BUDGET_BYTES);
if (over.length > 0) {
  console.error(
    `\nOver the JavaScript budget of ${kB(BUDGET_BYTES)} kB gzip: ${over.map((row) => `${row.page} (${row.locale})`).join(', ')}`,
  );
  process.exit(1);
}
