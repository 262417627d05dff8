import { describe, expect, it } from 'vitest';
import { epubAccessibilityRows, isFixedLayout, packageMetadata } from './epub-accessibility.ts';

// Issue 38, "accessibility facts as the publisher stated them": the W3C "Accessibility Metadata
// Display Guide for Digital Publications" 2.1, "Display Techniques for EPUB Accessibility
// Metadata" (w3c/publ-a11y, metadata-display-guide/techniques/epub), field by field, on package
// documents written as publishers write them (EPUB Accessibility 1.1 §2, EPUB 3.3 §5 fixed
// layouts).

const opf = (metadata: string, prefix = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="bookid" xml:lang="en"${prefix}>
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="bookid">urn:isbn:9781234567897</dc:identifier>
    <dc:title>Title</dc:title>
    <dc:language>en</dc:language>
    <meta property="dcterms:modified">2025-03-01T10:00:00Z</meta>
${metadata}
  </metadata>
  <manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/></manifest>
  <spine><itemref idref="nav"/></spine>
</package>`;

// A fixed-layout picture book as children's publishers ship it since the European
// Accessibility Act: pre-paginated spreads, text and pictures, alternative text, no hazards,
// a level A claim; no displayTransformability, as its text is drawn where the page puts it.
const PICTURE_BOOK = opf(
  `    <meta property="rendition:layout">pre-paginated</meta>
    <meta property="rendition:orientation">landscape</meta>
    <meta property="rendition:spread">landscape</meta>
    <meta property="schema:accessMode">textual</meta>
    <meta property="schema:accessMode">visual</meta>
    <meta property="schema:accessModeSufficient">textual,visual</meta>
    <meta property="schema:accessModeSufficient">visual</meta>
    <meta property="schema:accessibilityFeature">alternativeText</meta>
    <meta property="schema:accessibilityFeature">readingOrder</meta>
    <meta property="schema:accessibilityFeature">tableOfContents</meta>
    <meta property="schema:accessibilityHazard">none</meta>
    <meta property="schema:accessibilitySummary">The pictures of this fixed-layout book are described; its text is in reading order.</meta>
    <meta property="dcterms:conformsTo">EPUB Accessibility 1.1 - WCAG 2.1 Level A</meta>`,
  ' prefix="rendition: http://www.idpf.org/vocab/rendition/#"',
);

// A reflowable textbook, certified: everything a born-accessible educational EPUB declares,
// ARIA (DPUB-ARIA roles) among it.
const TEXTBOOK = opf(
  `    <meta property="schema:accessMode">textual</meta>
    <meta property="schema:accessMode">visual</meta>
    <meta property="schema:accessModeSufficient">textual</meta>
    <meta property="schema:accessibilityFeature">displayTransformability</meta>
    <meta property="schema:accessibilityFeature">tableOfContents</meta>
    <meta property="schema:accessibilityFeature">index</meta>
    <meta property="schema:accessibilityFeature">pageNavigation</meta>
    <meta property="schema:accessibilityFeature">pageBreakMarkers</meta>
    <meta property="schema:accessibilityFeature">structuralNavigation</meta>
    <meta property="schema:accessibilityFeature">readingOrder</meta>
    <meta property="schema:accessibilityFeature">alternativeText</meta>
    <meta property="schema:accessibilityFeature">longDescription</meta>
    <meta property="schema:accessibilityFeature">MathML</meta>
    <meta property="schema:accessibilityFeature">describedMath</meta>
    <meta property="schema:accessibilityFeature">aria</meta>
    <meta property="schema:accessibilityHazard">noFlashingHazard</meta>
    <meta property="schema:accessibilityHazard">noMotionSimulationHazard</meta>
    <meta property="schema:accessibilityHazard">noSoundHazard</meta>
    <meta property="schema:accessibilitySummary">This publication conforms to WCAG 2.2 Level AA.</meta>
    <meta property="dcterms:conformsTo" id="conf">EPUB Accessibility 1.1 - WCAG 2.2 Level AA</meta>
    <meta property="a11y:certifiedBy" id="certifier" refines="#conf">Benetech</meta>
    <meta property="a11y:certifierCredential" refines="#certifier">https://bornaccessible.org/certification/gca-credential/</meta>
    <meta property="dcterms:date" refines="#certifier">2025-03-17</meta>
    <link rel="a11y:certifierReport" refines="#certifier" href="https://example.org/reports/9781234567897"/>`,
);

const rows = (text: string) => epubAccessibilityRows(packageMetadata(text));
const codes = (text: string) => rows(text)?.map((r) => r.code);

describe('EPUB techniques: ways of reading', () => {
  it('techniques/epub §Visual adjustments: a fixed-layout EPUB (rendition:layout pre-paginated) without displayTransformability shows "Appearance cannot be modified"', () => {
    expect(isFixedLayout(packageMetadata(PICTURE_BOOK))).toBe(true);
    expect(codes(PICTURE_BOOK)?.[0]).toBe('ways-of-reading-visual-adjustments-unmodifiable');
  });

  it('techniques/epub §Visual adjustments: displayTransformability says "Appearance can be modified", fixed layout or not', () => {
    expect(codes(TEXTBOOK)?.[0]).toBe('ways-of-reading-visual-adjustments-modifiable');
    const both = PICTURE_BOOK.replace(
      '<meta property="schema:accessibilityFeature">alternativeText</meta>',
      '<meta property="schema:accessibilityFeature">displayTransformability</meta>',
    );
    expect(codes(both)?.[0]).toBe('ways-of-reading-visual-adjustments-modifiable');
  });

  it('techniques/epub §Visual adjustments: a reflowable EPUB that says nothing of it is not known', () => {
    expect(
      isFixedLayout(packageMetadata(opf('<meta property="rendition:layout">reflowable</meta>'))),
    ).toBe(false);
    expect(codes(opf('<meta property="schema:accessMode">textual</meta>'))?.[0]).toBe(
      'ways-of-reading-visual-adjustments-unknown',
    );
  });

  it('a fixed-layout EPUB with no accessibility metadata is still fixed layout (the store keeps that fact), with no statements of its own', () => {
    const bare = opf('<meta property="rendition:layout">pre-paginated</meta>');
    expect(isFixedLayout(packageMetadata(bare))).toBe(true);
    expect(rows(bare)).toBeNull();
  });

  it('techniques/epub §Supports nonvisual reading and §Prerecorded audio: textual sufficient is readable; textual among others is not fully; alternative text said', () => {
    expect(codes(TEXTBOOK)?.slice(1, 4)).toEqual([
      'ways-of-reading-nonvisual-reading-readable',
      'ways-of-reading-nonvisual-reading-alt-text',
      'ways-of-reading-prerecorded-audio-no-metadata',
    ]);
    expect(codes(PICTURE_BOOK)?.slice(1, 3)).toEqual([
      'ways-of-reading-nonvisual-reading-not-fully',
      'ways-of-reading-nonvisual-reading-alt-text',
    ]);
  });
});

describe('EPUB techniques: conformance, navigation, rich content, hazards, summary, legal', () => {
  it('techniques/epub §Conformance: level, certifier, credential (a link), claim, date, report, each refining the claim', () => {
    expect(
      rows(TEXTBOOK)
        ?.filter((r) => r.subcategory === 'Conformance')
        .map((r) => [r.code, r.detail, r.url]),
    ).toEqual([
      ['conformance-aa', null, null],
      ['conformance-certifier', 'Benetech', null],
      [
        'conformance-certifier-credentials',
        'https://bornaccessible.org/certification/gca-credential/',
        'https://bornaccessible.org/certification/gca-credential/',
      ],
      ['conformance-details-claim', 'EPUB Accessibility 1.1 - WCAG 2.2 Level AA', null],
      ['conformance-details-certification-info', '2025-03-17', null],
      ['conformance-details-certifier-report', null, 'https://example.org/reports/9781234567897'],
    ]);
    expect(codes(PICTURE_BOOK)?.filter((c) => c?.startsWith('conformance'))).toEqual([
      'conformance-a',
      'conformance-details-claim',
    ]);
  });

  it('techniques/epub §Navigation: go to page, headings, index, table of contents, in that order', () => {
    expect(codes(TEXTBOOK)?.filter((c) => c?.startsWith('navigation'))).toEqual([
      'navigation-page-navigation',
      'navigation-structural',
      'navigation-index',
      'navigation-toc',
    ]);
  });

  it('techniques/epub §Rich content: extended descriptions, described math, MathML; the picture book says nothing of it', () => {
    expect(codes(TEXTBOOK)?.filter((c) => c?.startsWith('rich'))).toEqual([
      'rich-content-extended',
      'rich-content-accessible-math-described',
      'rich-content-accessible-math-as-mathml',
    ]);
    expect(codes(PICTURE_BOOK)?.filter((c) => c?.startsWith('rich'))).toEqual([
      'rich-content-unknown',
    ]);
  });

  it('techniques/epub §Hazards: none of the three is "No hazards"', () => {
    expect(codes(TEXTBOOK)?.filter((c) => c?.startsWith('hazards'))).toEqual(['hazards-none']);
  });

  it('techniques/epub §Accessibility summary and §Legal considerations: the publisher’s words; no exemption', () => {
    const found = rows(PICTURE_BOOK);
    expect(found?.find((r) => r.subcategory === 'Accessibility Summary')?.detail).toBe(
      'The pictures of this fixed-layout book are described; its text is in reading order.',
    );
    expect(found?.find((r) => r.subcategory === 'Legal Considerations')?.code).toBe(
      'legal-considerations-no-metadata',
    );
  });
});

describe('EPUB techniques: additional accessibility information', () => {
  it('techniques/epub §Additional accessibility information: a book declaring ARIA lists "ARIA roles included", after page breaks', () => {
    expect(codes(TEXTBOOK)?.filter((c) => c?.startsWith('additional'))).toEqual([
      'additional-accessibility-information-page-breaks',
      'additional-accessibility-information-aria',
    ]);
  });

  it('techniques/epub §Additional accessibility information: every feature in the technique’s order', () => {
    const features = [
      'ttsMarkup',
      'tactileObject',
      'tactileGraphic',
      'signLanguage',
      'rubyAnnotations',
      'largePrint',
      'highContrastDisplay',
      'highContrastAudio',
      'fullRubyAnnotations',
      'braille',
      'audioDescription',
      'aria',
      'printPageNumbers',
    ];
    const text = opf(
      features.map((f) => `<meta property="schema:accessibilityFeature">${f}</meta>`).join('\n'),
    );
    expect(codes(text)?.filter((c) => c?.startsWith('additional'))).toEqual([
      'additional-accessibility-information-page-breaks',
      'additional-accessibility-information-aria',
      'additional-accessibility-information-audio-descriptions',
      'additional-accessibility-information-braille',
      'additional-accessibility-information-full-ruby-annotations',
      'additional-accessibility-information-high-contrast-between-foreground-and-background-audio',
      'additional-accessibility-information-high-contrast-between-text-and-background',
      'additional-accessibility-information-large-print',
      'additional-accessibility-information-ruby-annotations',
      'additional-accessibility-information-sign-language',
      'additional-accessibility-information-tactile-graphics',
      'additional-accessibility-information-tactile-objects',
      'additional-accessibility-information-text-to-speech-hinting',
    ]);
  });
});
