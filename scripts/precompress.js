// After `react-router build`: writes a brotli (.br, best quality) and a gzip (.gz, level 9)
// copy beside every text-like file of build/client, so the server sends built assets
// compressed without compressing them per request (issue 13, "Fast on a phone").
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(process.argv[2] ?? 'build/client');
const TEXT = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.txt', '.map', '.xml', '.html']);
let files = 0;
let before = 0;
let after = 0;

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (TEXT.has(path.extname(name))) compress(full);
  }
}

function compress(file) {
  const body = readFileSync(file);
  // Below a kilobyte the headers weigh more than what compression saves.
  if (body.length < 1024) return;
  const br = zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
  files += 1;
  before += body.length;
  after += br.length;
}

walk(root);
console.log(
  `precompressed ${files} files: ${Math.round(before / 1024)} KB → ${Math.round(after / 1024)} KB brotli`,
);
