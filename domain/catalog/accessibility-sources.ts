// A product's accessibility statements can come from two of the publisher's records (issue 38):
// its ONIX record ('feed', the display guide's ONIX techniques) and its EPUB's package document
// ('file', the EPUB techniques), each written by its own import and replaced only by it. A feed
// re-sent after the file was checked used to erase the file's statements, so a fixed-layout
// book said "No information about appearance modifiability is available" again.

export type AccessibilitySource = 'feed' | 'file';

type Row = { category: string; code: string | null; source: AccessibilitySource | null };

const UNKNOWN_APPEARANCE = 'ways-of-reading-visual-adjustments-unknown';

/**
 * The accessibility rows a product page shows, the other categories untouched:
 * - the EPUB's own statements when its package made them, as they describe the very file the
 *   reader opens; else the feed's (and the store's own);
 * - the display guide's Visual adjustments field (EPUB and ONIX techniques: "ELSE IF
 *   is_fixed_layout: display 'Appearance cannot be modified'") with the layout the store read
 *   from the EPUB itself when the shown statements do not know it: a fixed-layout EPUB is fixed
 *   format (list 175 E201) whether or not its feed says so.
 */
export function shownAccessibilityRows<T extends Row>(
  rows: readonly T[],
  facts: { fixedLayout: boolean | null },
): T[] {
  const fromFile = rows.some((r) => r.category === 'accessibility' && r.source === 'file');
  return rows
    .filter(
      (r) =>
        r.category !== 'accessibility' || (fromFile ? r.source === 'file' : r.source !== 'file'),
    )
    .map((r) =>
      r.category === 'accessibility' && r.code === UNKNOWN_APPEARANCE && facts.fixedLayout
        ? { ...r, code: 'ways-of-reading-visual-adjustments-unmodifiable' }
        : r,
    );
}
