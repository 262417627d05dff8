import path from 'node:path';
import { parseArgs } from 'node:util';

/**
 * What `npm run backup` and `npm run restore` are given: one backup directory, the data
 * directory (--data-dir, else $DATA_DIR, else ./data) and DATABASE_URL. A mistake prints the
 * command's usage and exits 2; --help prints it and exits 0.
 */
export function backupCommandLine(usage: string): {
  directory: string;
  dataDir: string;
  url: string | undefined;
  fail: (message: string) => never;
} {
  const fail = (message: string): never => {
    console.error(`${message}\n${usage}`);
    process.exit(2);
  };
  let parsed: { values: { 'data-dir'?: string; help?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({
      options: { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
  } catch (error) {
    return fail((error as Error).message);
  }
  if (parsed.values.help) {
    console.log(usage);
    process.exit(0);
  }
  const [directory, ...extra] = parsed.positionals;
  if (!directory || extra.length > 0) return fail('give one backup directory');
  return {
    directory,
    dataDir: path.resolve(parsed.values['data-dir'] ?? process.env.DATA_DIR ?? './data'),
    url: process.env.DATABASE_URL || undefined,
    fail,
  };
}
