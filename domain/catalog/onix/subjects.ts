// Subjects to the store's categories (issue 15). The store browses by BISAC subject headings;
// a BISAC code it does not list falls back to its discipline's general heading, and a Thema
// subject category maps to the BISAC discipline it belongs to. Longest prefix wins.
const THEMA_TO_BISAC: readonly (readonly [string, string])[] = [
  ['CJ', 'LAN000000'],
  ['C', 'LAN000000'],
  ['F', 'FIC000000'],
  ['JM', 'PSY000000'],
  ['JN', 'EDU000000'],
  ['JP', 'POL000000'],
  ['J', 'SOC000000'],
  ['K', 'BUS000000'],
  ['M', 'MED000000'],
  ['N', 'HIS000000'],
  ['PB', 'MAT000000'],
  ['P', 'SCI000000'],
  ['RB', 'SCI000000'],
  ['U', 'COM000000'],
  // Thema Y is children's, teenage and educational: only its fiction (YF), picture books (YB)
  // and poetry and anthologies (YD) are Juvenile Fiction; educational material (YP) is
  // Education; its non-fiction and reference (YN, YR, YX, YZ) have no heading in the store's
  // tree and get none, rather than a wrong one (session 23: school books were browsed as
  // Juvenile Fiction).
  ['YB', 'JUV000000'],
  ['YD', 'JUV000000'],
  ['YF', 'JUV000000'],
  ['YP', 'EDU000000'],
];

/** The BISAC code a Thema subject category is browsed under, or null. */
export function bisacOfThema(code: string): string | null {
  const value = code.trim().toUpperCase();
  let best: readonly [string, string] | null = null;
  for (const entry of THEMA_TO_BISAC) {
    if (value.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1] ?? null;
}

/**
 * The store's category codes for a product's subjects, main subject first, each once: a known
 * BISAC code as it is, an unknown one as its discipline's general heading.
 */
export function categoryCodes(
  subjects: readonly { scheme: 'bisac' | 'thema'; code: string }[],
  known: (code: string) => boolean,
): string[] {
  const out: string[] = [];
  for (const subject of subjects) {
    const code = subject.code.trim().toUpperCase();
    let mapped: string | null = null;
    if (subject.scheme === 'bisac' && /^[A-Z]{3}\d{6}$/.test(code)) {
      mapped = known(code)
        ? code
        : known(`${code.slice(0, 3)}000000`)
          ? `${code.slice(0, 3)}000000`
          : null;
    } else if (subject.scheme === 'thema') {
      const bisac = bisacOfThema(code);
      mapped = bisac && known(bisac) ? bisac : null;
    }
    if (mapped && !out.includes(mapped)) out.push(mapped);
  }
  return out;
}
