import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * The PostgreSQL client program to run: from PG_BIN when set, else the newest under Debian's
 * /usr/lib/postgresql/<version>/bin (pg_dump must be at least the server's version), else the
 * one on PATH.
 */
export function pgTool(name: string): string {
  if (process.env.PG_BIN) return path.join(process.env.PG_BIN, name);
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const newest = readdirSync(root)
      .filter((v) => existsSync(path.join(root, v, 'bin', name)))
      .sort((a, b) => Number(a) - Number(b))
      .at(-1);
    if (newest) return path.join(root, newest, 'bin', name);
  }
  return name;
}

/**
 * `--dbname` for a connection URL, its password moved to PGPASSWORD: a command line is
 * visible to every user of the machine (ps), the environment is not.
 */
export function connectionOf(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return {
    dbname: parsed.toString(),
    env: password ? { ...process.env, PGPASSWORD: password } : process.env,
  };
}

/**
 * Runs a PostgreSQL program on the database at `url` (given as --dbname); its standard error
 * is in the error thrown when it fails.
 */
export async function runPgTool(name: string, url: string, args: string[]): Promise<void> {
  const { dbname, env } = connectionOf(url);
  try {
    await execFileAsync(pgTool(name), [...args, `--dbname=${dbname}`], {
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const failed = error as Error & { stderr?: string };
    throw new Error(`${name} failed: ${failed.stderr?.trim() || failed.message}`);
  }
}
