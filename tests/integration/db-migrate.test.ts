import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 13: `npm run db:migrate` ran a script that did not exist. Every script of package.json
// names a file that is there, and db:migrate migrates a database a deploy points it at.
describe('npm scripts', () => {
  const scripts: Record<string, string> = JSON.parse(readFileSync('package.json', 'utf8')).scripts;

  it.each(Object.entries(scripts))('%s names files that exist', (_name, command) => {
    for (const file of command.match(/[\w./-]+\.(?:ts|js|mjs)\b/g) ?? []) {
      if (file.includes('/') || file.endsWith('.js')) expect(existsSync(file), file).toBe(true);
    }
  });

  it('db:migrate applies the migrations to an empty embedded database and exits 0', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shelfmark-migrate-'));
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
      delete env.DATABASE_URL;
      const run = spawnSync('npx', ['tsx', 'scripts/db-migrate.ts'], { env, encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('applied to the embedded database');
      expect(existsSync(path.join(dataDir, 'pglite'))).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
