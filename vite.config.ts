import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

// The server build's entry is our own app (server/entry.ts), which imports the React Router
// build, so pages, the API and the database share one module graph and one connection pool.
export default defineConfig(({ isSsrBuild }) => ({
  build: {
    // One server file (build/server/index.js): db/migrate.ts finds the migrations beside it,
    // and the reader's lazily loaded PDF view needs no chunk of its own on the server.
    rollupOptions: isSsrBuild
      ? { input: './server/entry.ts', output: { inlineDynamicImports: true } }
      : undefined,
  },
  plugins: [reactRouter()],
}));
