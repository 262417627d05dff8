// After `react-router build`: the cluster's primary (server/cluster.ts), written beside the
// server build as build/server/cluster.js (issue 40). server.js loads it first to decide how
// many processes serve; a primary of several workers then runs from it alone, without the
// app's bundle (React, the database driver, the routes): it only forks, restarts and sums
// metrics. Its packages (zod, pino, prom-client) stay imports, as in the app's build.
import path from 'node:path';
import { build } from 'vite';

const outDir = path.resolve(process.argv[2] ?? 'build/server');
await build({
  configFile: false,
  publicDir: false,
  logLevel: 'warn',
  build: {
    ssr: path.resolve('server/cluster.ts'),
    outDir,
    emptyOutDir: false,
    target: 'node20',
    minify: false,
    rollupOptions: { output: { entryFileNames: 'cluster.js' } },
  },
});
console.log(`cluster.js written to ${path.relative(process.cwd(), outDir)}`);
