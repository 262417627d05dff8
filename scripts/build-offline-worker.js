// After `react-router build`: the reader's service worker (web/reading/offline-worker.ts),
// written to build/client/reader-sw.js so it is served from the site's root and its scope
// covers the reader's pages (issue 16, offline reading). It imports nothing: esbuild (through
// Vite) only strips its types and minifies it.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { transformWithEsbuild } from 'vite';

const source = path.resolve('web/reading/offline-worker.ts');
const target = path.resolve(process.argv[2] ?? 'build/client', 'reader-sw.js');
const { code } = await transformWithEsbuild(readFileSync(source, 'utf8'), source, {
  loader: 'ts',
  format: 'esm',
  target: 'es2022',
  minify: true,
});
writeFileSync(target, code);
console.log(`reader-sw.js: ${code.length} bytes`);
