import type { MessageWording } from '#domain/shared/wording.ts';
import {
  MANIFEST_VERSION,
  ONEROSTER_VERSION,
  ROSTER_FILES,
  type RosterFile,
} from './oneroster-tables.ts';

// manifest.csv of a OneRoster 1.2 CSV package (decision 035): propertyName,value rows naming
// the versions and, per file, whether it is absent, a bulk snapshot or a delta.

export type FileMode = 'absent' | 'bulk' | 'delta';

export type Manifest = {
  modes: Record<RosterFile, FileMode>;
  systemName: string | null;
};

export type ManifestReading =
  | { ok: true; manifest: Manifest }
  | { ok: false; reason: MessageWording };

const MODES: readonly string[] = ['absent', 'bulk', 'delta'];

/**
 * Reads the manifest's rows (header first). Refuses the package, with the reason, for a wrong
 * manifest.version or oneroster.version, a file mode outside absent|bulk|delta, or a package
 * that lists none of the files this import reads.
 */
export function readManifest(rows: readonly (readonly string[])[]): ManifestReading {
  const [header, ...body] = rows;
  if (!header || header[0] !== 'propertyName' || header[1] !== 'value') {
    return refuse('ops.roster.refused.manifestHeader');
  }
  const properties = new Map<string, string>();
  for (const row of body) {
    const name = row[0] ?? '';
    if (name === '') continue;
    if (properties.has(name)) {
      return refuse('ops.roster.refused.manifestDuplicate', { property: name.slice(0, 100) });
    }
    properties.set(name, row[1] ?? '');
  }
  const manifestVersion = properties.get('manifest.version') ?? '';
  if (manifestVersion !== MANIFEST_VERSION) {
    return refuse('ops.roster.refused.manifestVersion', {
      found: shown(manifestVersion),
      expected: MANIFEST_VERSION,
    });
  }
  const version = properties.get('oneroster.version') ?? '';
  if (version !== ONEROSTER_VERSION) {
    return refuse('ops.roster.refused.onerosterVersion', {
      found: shown(version),
      expected: ONEROSTER_VERSION,
    });
  }
  const modes = {} as Record<RosterFile, FileMode>;
  for (const file of ROSTER_FILES) {
    // A file the manifest does not name is not in the package.
    const mode = properties.get(`file.${file}`) ?? 'absent';
    if (!MODES.includes(mode)) {
      return refuse('ops.roster.refused.fileMode', { file: `${file}.csv`, mode: shown(mode) });
    }
    modes[file] = mode as FileMode;
  }
  if (ROSTER_FILES.every((file) => modes[file] === 'absent')) {
    return refuse('ops.roster.refused.nothing');
  }
  const systemName = properties.get('source.systemName')?.trim() || null;
  return { ok: true, manifest: { modes, systemName: systemName?.slice(0, 200) ?? null } };
}

const shown = (value: string) => (value === '' ? '—' : value.slice(0, 40));

function refuse(message: string, values?: Record<string, string>): ManifestReading {
  return { ok: false, reason: values ? { message, values } : { message } };
}
