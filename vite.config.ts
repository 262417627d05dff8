import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig, type Plugin } from 'vite';

// The browser's chunks (issue 13, the JavaScript budget of scripts/js-budget.ts). One chunk
// compresses better than the many small ones Rollup would make: `shell` is what every page
// runs besides React DOM's client (the router, React, the messages, the navbar and footer,
// the product cards); `product-detail` is what a product page adds (its sections, tabs and
// offering options). Radix, which only dialogs and menus use now, is left to Rollup: it comes
// with the first dialog opened.
const SHELL = [
  '/web/root.tsx',
  '/web/i18n/',
  '/i18n/format-',
  '/domain/accounts/language.ts',
  '/web/utils/on-demand.tsx',
  '/web/utils/meta.ts',
  '/web/utils/csrf-token.ts',
  '/web/utils/when-idle.ts',
  '/web/commerce/cart-lines.ts',
  '/domain/catalog/cover-image.ts',
  '/web/utils/inner-html.ts',
  '/web/utils/server-markup.tsx',
  '/web/components/search-box.tsx',
  '/web/components/price-text.tsx',
  '/web/components/product-card.tsx',
  '/web/components/product-tray.tsx',
  '/node_modules/react-dom/index.js',
  '/node_modules/react-dom/cjs/react-dom.production.js',
  '/node_modules/react/jsx-runtime.js',
  '/node_modules/react/cjs/react-jsx-runtime.production.js',
  'vite/preload-helper',
];
const PRODUCT_DETAIL = [
  '/web/components/product-type-sections.tsx',
  '/web/components/product-item-list.tsx',
  '/web/components/offering-options.tsx',
  '/web/components/book-file-list.tsx',
  '/web/components/feature-list.tsx',
  '/web/components/details-table.tsx',
  '/domain/commerce/cart-button.ts',
  '/domain/catalog/availability.ts',
  '/domain/catalog/product-type-rules.ts',
  '/web/components/tabs.tsx',
  '/web/components/breadcrumb.tsx',
  '/web/utils/button-notify.tsx',
  '/domain/catalog/edition.ts',
  '/domain/catalog/offering-selection.ts',
];
function browserChunk(id: string): string | undefined {
  if (SHELL.some((part) => id.includes(part))) return 'shell';
  if (PRODUCT_DETAIL.some((part) => id.includes(part))) return 'product-detail';
  return undefined;
}

/**
 * V8's explicit compile hint (Chrome 136 and later): a file whose first line is this comment has
 * all its functions compiled while it streams in, on a background thread, instead of each on
 * the main thread the first time it is called. Hydration calls most of what the entry (React
 * DOM), the shell and the page's route module hold; compiling it lazily was a third of a
 * product page's main-thread script time in Lighthouse's traces (issue 13: at 4x, script
 * evaluation 1,250–1,450 ms without the hint, 470–920 ms with it). Chunks loaded on demand
 * (dialogs, heavy viewers) keep lazy compilation: most of their functions may never run.
 */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

function compileHints(): Plugin {
  // Entries are React Router's: the browser entry and each route module. A chunk that is not
  // the target of a dynamic import() comes with them (the shell, a page's shared parts).
  const calledOnLoad = (chunk: { isEntry: boolean; isDynamicEntry: boolean }) =>
    chunk.isEntry || !chunk.isDynamicEntry;
  return {
    name: 'shelfmark:compile-hints',
    apply: 'build',
    enforce: 'post',
    // The file's name changes with its hint (its hash is computed before generateBundle).
    augmentChunkHash(chunk) {
      return calledOnLoad(chunk) ? COMPILE_HINT : undefined;
    },
    // Last, once written: esbuild's and terser's passes drop comments, and Vite's preload
    // helper puts its own first line in front of a chunk's code after generateBundle.
    writeBundle(options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !calledOnLoad(chunk)) continue;
        const file = path.join(options.dir ?? '', chunk.fileName);
        writeFileSync(file, `${COMPILE_HINT}\n${readFileSync(file, 'utf8')}`);
      }
    },
  };
}

/**
 * React Router's production build, in the browser and on the server (issue 40). Its package
 * exports only the development build (dev-time checks and warnings) under every condition, so a
 * built store ran it: about a tenth of a page's server time went to its route matching, and the
 * browser downloaded its warnings. Both entries, so that they share one router's contexts.
 */
const routerFile = (file: string) =>
  path.resolve(import.meta.dirname, 'node_modules/react-router/dist/production', file);
const productionRouter = [
  { find: /^react-router$/, replacement: routerFile('index.mjs') },
  { find: /^react-router\/dom$/, replacement: routerFile('dom-export.mjs') },
];

export default defineConfig(({ command, isSsrBuild }) => ({
  resolve: command === 'build' ? { alias: productionRouter } : {},
  build: isSsrBuild
    ? {
        // The server build's entry is our own app (server/entry.ts), which imports the React
        // Router build, so pages, the API and the database share one module graph and one
        // connection pool. One server file (build/server/index.js): db/migrate.ts finds the
        // migrations beside it, and the reader's lazily loaded PDF view needs no chunk of its
        // own on the server.
        rollupOptions: { input: './server/entry.ts', output: { inlineDynamicImports: true } },
      }
    : {
        // Terser writes 3% less than esbuild, React and React Router included.
        minify: 'terser',
        terserOptions: { compress: { passes: 2 }, format: { comments: false } },
        rollupOptions: { output: { manualChunks: browserChunk } },
      },
  plugins: [reactRouter(), ...(isSsrBuild ? [] : [compileHints()])],
}));
