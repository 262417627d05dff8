import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

// The server build's entry is our own app (server/entry.ts), which imports the React Router
// build, so pages, the API and the database share one module graph and one connection pool.
export default defineConfig(({ isSsrBuild }) => ({
  build: {
    rollupOptions: isSsrBuild ? { input: './server/entry.ts' } : undefined,
  },
  plugins: [reactRouter()],
}));
