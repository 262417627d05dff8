import { describe, expect, it } from 'vitest';
import { type AccessibilitySource, shownAccessibilityRows } from './accessibility-sources.ts';

// Issue 38: a product's accessibility statements from its ONIX record and from its EPUB, as the
// W3C display guide's techniques make each (guidelines §Display fields; techniques/epub and
// techniques/onix §Visual adjustments).
const row = (
  code: string | null,
  source: AccessibilitySource | null,
  category = 'accessibility',
) => ({
  category,
  code,
  source,
});

describe('which accessibility statements a product page shows', () => {
  it('the EPUB’s own statements when its package made them, instead of the feed’s; other features stay', () => {
    const rows = [
      row('read-aloud', null, 'ebook'),
      row('ways-of-reading-visual-adjustments-unknown', 'feed'),
      row('hazards-no-metadata', 'feed'),
      row('ways-of-reading-visual-adjustments-unmodifiable', 'file'),
      row('hazards-none', 'file'),
    ];
    expect(shownAccessibilityRows(rows, { fixedLayout: true })).toEqual([
      row('read-aloud', null, 'ebook'),
      row('ways-of-reading-visual-adjustments-unmodifiable', 'file'),
      row('hazards-none', 'file'),
    ]);
  });

  it('the feed’s (and the store’s own) when the EPUB said nothing', () => {
    const rows = [row('navigation-toc', 'feed'), row('conformance-aa', null)];
    expect(shownAccessibilityRows(rows, { fixedLayout: null })).toEqual(rows);
  });

  it('techniques §Visual adjustments, ELSE IF is_fixed_layout: a fixed-layout EPUB makes the feed’s unknown appearance "cannot be modified"', () => {
    const rows = [row('ways-of-reading-visual-adjustments-unknown', 'feed')];
    expect(shownAccessibilityRows(rows, { fixedLayout: true })).toEqual([
      row('ways-of-reading-visual-adjustments-unmodifiable', 'feed'),
    ]);
    // Reflowable or not known: the feed's statement stands.
    expect(shownAccessibilityRows(rows, { fixedLayout: false })).toEqual(rows);
    expect(shownAccessibilityRows(rows, { fixedLayout: null })).toEqual(rows);
  });

  it('techniques §Visual adjustments, IF all_textual_content_can_be_modified: "can be modified" stands even for a fixed layout', () => {
    const rows = [row('ways-of-reading-visual-adjustments-modifiable', 'feed')];
    expect(shownAccessibilityRows(rows, { fixedLayout: true })).toEqual(rows);
  });
});
