import { PERSONAL_PART_ID, PERSONAL_SLOT_ATTRIBUTE } from '#web/utils/personal-part.ts';

// Decision 043: a logged-in visitor's page is the stored anonymous page with their personal
// part added, without a React render. Plain string work on the stored bytes: the part as a
// JSON data block the browser never runs (so the page's Content-Security-Policy, which lists
// the hashes of the scripts it runs, stays as it was), and the server's markup of each marked
// slot (web/components/personal-slot.tsx) in place of the anonymous one.

/** The part as the body of a `<script type="application/json">`: no `</script>` inside. */
export function personalPartScript(part: unknown): string {
  const json = JSON.stringify(part)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${PERSONAL_PART_ID}">${json}</script>`;
}

/**
 * The stored page with each slot's inner markup replaced and the part's data block before
 * `</body>`; null when the page lacks a slot or its end (then it is rendered whole). A slot's
 * element holds no element of its own kind (a `<ul>` of items without a list), so its end is
 * the first closing tag of that kind after it.
 *
 * Bytes in, bytes out: the markers are ASCII, so they are found in the stored UTF-8 as they
 * are, and the page is never decoded to a string and encoded again (a 75 kB page made into a
 * string for the response was a tenth of the composed page's time, issue 40).
 */
export function splicePersonalPart(
  page: Buffer,
  slots: Readonly<Record<string, string>>,
  part: unknown,
): Buffer | null {
  const found: { name: string; start: number; end: number }[] = [];
  for (const name of Object.keys(slots)) {
    const at = page.indexOf(` ${PERSONAL_SLOT_ATTRIBUTE}="${name}"`);
    if (at < 0) return null;
    const open = page.lastIndexOf('<', at);
    const tag =
      open < 0 ? undefined : /^<([a-z][a-z0-9-]*)/.exec(page.toString('latin1', open, at + 1))?.[1];
    const start = page.indexOf('>', at) + 1;
    if (!tag || start === 0) return null;
    const end = page.indexOf(`</${tag}>`, start);
    if (end < 0) return null;
    found.push({ name, start, end });
  }
  found.sort((a, b) => a.start - b.start);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const slot of found) {
    pieces.push(page.subarray(from, slot.start), Buffer.from(slots[slot.name]!, 'utf8'));
    from = slot.end;
  }
  const bodyEnd = page.lastIndexOf('</body>');
  if (bodyEnd < from) return null;
  pieces.push(
    page.subarray(from, bodyEnd),
    Buffer.from(personalPartScript(part), 'utf8'),
    page.subarray(bodyEnd),
  );
  return Buffer.concat(pieces);
}
