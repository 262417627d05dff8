import { describe, expect, it } from 'vitest';
import { onixAccessibilityFacts, onixAccessibilityRows } from './accessibility.ts';
import { feedEvents } from './test-feed.ts';

// Issue 38, "accessibility facts as the publisher stated them": the W3C "Accessibility Metadata
// Display Guide for Digital Publications" 2.1, "Display Techniques for ONIX Accessibility
// Metadata" (w3c/publ-a11y, metadata-display-guide/techniques/onix), field by field. The
// records are written as publishers write them: ProductFormDetail (list 175), content types
// (list 81), ProductFormFeature type 09 (list 196) and type 12 (list 143).

const feature = (type: string, value: string, description?: string) =>
  `<ProductFormFeature><ProductFormFeatureType>${type}</ProductFormFeatureType><ProductFormFeatureValue>${value}</ProductFormFeatureValue>${
    description
      ? `<ProductFormFeatureDescription>${description}</ProductFormFeatureDescription>`
      : ''
  }</ProductFormFeature>`;
const a11y = (...codes: string[]) => codes.map((code) => feature('09', code)).join('');

async function rowsOf(descriptive: string, tags: 'reference' | 'short' = 'reference') {
  const text =
    tags === 'reference'
      ? `<ONIXMessage release="3.0" xmlns="http://ns.editeur.org/onix/3.0/reference"><Header><Sender><SenderName>P</SenderName></Sender><SentDateTime>20260101</SentDateTime></Header>
<Product><RecordReference>r</RecordReference><NotificationType>03</NotificationType><DescriptiveDetail><ProductComposition>00</ProductComposition><ProductForm>ED</ProductForm>${descriptive}</DescriptiveDetail></Product></ONIXMessage>`
      : `<ONIXmessage release="3.0" xmlns="http://ns.editeur.org/onix/3.0/short"><header><sender><x298>P</x298></sender><x307>20260101</x307></header>
<product><a001>r</a001><a002>03</a002><descriptivedetail><x314>00</x314><b012>ED</b012>${descriptive}</descriptivedetail></product></ONIXmessage>`;
  const product = (await feedEvents(text)).flatMap((e) =>
    e.kind === 'product' ? [e.product] : [],
  )[0];
  if (!product) throw new Error('no product read');
  return onixAccessibilityRows(onixAccessibilityFacts(product));
}
const codes = async (descriptive: string) => (await rowsOf(descriptive)).map((r) => r.code);

// A fixed-layout picture book as a children's publisher lists it: EPUB (E101), fixed format
// (E201), text with pictures, "no reading system options disabled" (10), language tagging (22),
// short alternative descriptions (14), no hazards; not 36, since its text cannot be restyled.
const PICTURE_BOOK = `<ProductFormDetail>E101</ProductFormDetail><ProductFormDetail>E201</ProductFormDetail>${a11y(
  '10',
  '22',
  '14',
)}${feature('12', '00')}<PrimaryContentType>10</PrimaryContentType><ProductContentType>07</ProductContentType>`;

// A reflowable textbook as an accessibility-certified educational publisher lists it: EPUB
// Accessibility 1.1 (04), WCAG 2.2 (82) AA (85), all text restylable (36), readable without
// sight (52), full alternative descriptions (15), ToC, index, page list, headings, ARIA (30),
// print page numbers (19), MathML (17), certifier name, address, date and report, summary.
const TEXTBOOK = `<ProductFormDetail>E101</ProductFormDetail><ProductFormDetail>E200</ProductFormDetail>${a11y(
  '04',
  '82',
  '85',
  '36',
  '52',
  '15',
  '11',
  '12',
  '41',
  '29',
  '30',
  '19',
  '17',
)}${feature('09', '90', 'Benetech')}${feature('09', '93', 'https://bornaccessible.org/certification/gca-credential/')}${feature(
  '09',
  '91',
  '20250317',
)}${feature('09', '94', 'https://example.org/reports/9781234567897')}${feature(
  '09',
  '00',
  'This publication conforms to WCAG 2.2 AA.',
)}${feature('12', '00')}<PrimaryContentType>10</PrimaryContentType>`;

describe('ONIX techniques: ways of reading, visual adjustments', () => {
  it('techniques/onix §Visual adjustments: a fixed-format (E201) e-book without code 36 shows "Appearance cannot be modified"', async () => {
    expect((await codes(PICTURE_BOOK))[0]).toBe('ways-of-reading-visual-adjustments-unmodifiable');
  });

  it('techniques/onix §Visual adjustments: 36 says the appearance can be modified, whatever the layout', async () => {
    expect((await codes(`<ProductFormDetail>E201</ProductFormDetail>${a11y('36')}`))[0]).toBe(
      'ways-of-reading-visual-adjustments-modifiable',
    );
  });

  it('techniques/onix §Visual adjustments: reflowable and fixed together (E200 and E201), or neither, is not known', async () => {
    expect(
      (
        await codes(
          '<ProductFormDetail>E200</ProductFormDetail><ProductFormDetail>E201</ProductFormDetail>',
        )
      )[0],
    ).toBe('ways-of-reading-visual-adjustments-unknown');
    expect((await codes(`<ProductFormDetail>E101</ProductFormDetail>${a11y('10')}`))[0]).toBe(
      'ways-of-reading-visual-adjustments-unknown',
    );
  });

  it('reads the same record in short tags (b333, b334/b335, x416, b385)', async () => {
    const short = `<b333>E101</b333><b333>E201</b333><productformfeature><b334>09</b334><b335>11</b335></productformfeature><x416>10</x416><b385>07</b385>`;
    const rows = await rowsOf(short, 'short');
    expect(rows.map((r) => r.code).slice(0, 3)).toEqual([
      'ways-of-reading-visual-adjustments-unmodifiable',
      'ways-of-reading-nonvisual-reading-not-fully',
      'ways-of-reading-prerecorded-audio-no-metadata',
    ]);
  });
});

describe('ONIX techniques: ways of reading, nonvisual reading and prerecorded audio', () => {
  it('techniques/onix §Supports nonvisual reading: 52 is readable; text (list 81 code 10) or alternatives are not fully; an audiobook alone is not readable', async () => {
    expect((await codes(TEXTBOOK))[1]).toBe('ways-of-reading-nonvisual-reading-readable');
    expect((await codes(PICTURE_BOOK)).slice(1, 3)).toEqual([
      'ways-of-reading-nonvisual-reading-not-fully',
      'ways-of-reading-nonvisual-reading-alt-text',
    ]);
    expect((await codes(`<PrimaryContentType>10</PrimaryContentType>${a11y('11')}`))[1]).toBe(
      'ways-of-reading-nonvisual-reading-not-fully',
    );
    expect((await codes(`<PrimaryContentType>01</PrimaryContentType>${a11y('11')}`))[1]).toBe(
      'ways-of-reading-nonvisual-reading-none',
    );
  });

  it('techniques/onix §Supports nonvisual reading, note: text that is the only accessibility information is not called "not fully readable"', async () => {
    expect((await codes('<PrimaryContentType>10</PrimaryContentType>'))[1]).toBe(
      'ways-of-reading-nonvisual-reading-no-metadata',
    );
  });

  it('techniques/onix §Prerecorded audio: 39 only; an audiobook has clips; 51 with 20 and A305 is synchronized', async () => {
    expect((await codes(a11y('39')))[2]).toBe('ways-of-reading-prerecorded-audio-only');
    expect((await codes('<PrimaryContentType>01</PrimaryContentType>'))[2]).toBe(
      'ways-of-reading-prerecorded-audio-complementary',
    );
    expect((await codes(`<ProductFormDetail>A305</ProductFormDetail>${a11y('51', '20')}`))[2]).toBe(
      'ways-of-reading-prerecorded-audio-synchronized',
    );
    expect((await codes(a11y('10')))[2]).toBe('ways-of-reading-prerecorded-audio-no-metadata');
  });
});

describe('ONIX techniques: conformance, navigation, rich content, summary, legal', () => {
  it('techniques/onix §Conformance: the level, the certifier, its credential (a link), the claim, the date and the report', async () => {
    const rows = (await rowsOf(TEXTBOOK)).filter((r) => r.subcategory === 'Conformance');
    expect(rows.map((r) => [r.code, r.detail, r.url])).toEqual([
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
  });

  it('techniques/onix §Conformance: a WCAG level with no version claims nothing; EPUB Accessibility 1.0 AA (03) is WCAG 2.0 AA; LIA (01) meets accepted standards', async () => {
    expect((await codes(a11y('85'))).filter((c) => c?.startsWith('conformance'))).toEqual([
      'conformance-no',
    ]);
    const epub10 = (await rowsOf(a11y('03'))).filter((r) => r.subcategory === 'Conformance');
    expect(epub10.map((r) => r.detail ?? r.code)).toEqual([
      'conformance-aa',
      'EPUB Accessibility 1.0 - WCAG 2.0 Level AA',
    ]);
    expect((await codes(a11y('01'))).filter((c) => c?.startsWith('conformance'))).toEqual([
      'conformance-aa',
    ]);
  });

  it('techniques/onix §Navigation: table of contents, index, go to page, headings, in that order', async () => {
    expect((await codes(TEXTBOOK)).filter((c) => c?.startsWith('navigation'))).toEqual([
      'navigation-toc',
      'navigation-index',
      'navigation-page-navigation',
      'navigation-structural',
    ]);
  });

  it('techniques/onix §Rich content: MathML, extended descriptions (15 or 16); nothing known otherwise', async () => {
    expect((await codes(TEXTBOOK)).filter((c) => c?.startsWith('rich'))).toEqual([
      'rich-content-accessible-math-as-mathml',
      'rich-content-extended',
    ]);
    expect((await codes(PICTURE_BOOK)).filter((c) => c?.startsWith('rich'))).toEqual([
      'rich-content-unknown',
    ]);
  });

  it('techniques/onix §Accessibility summary and §Legal considerations: the publisher’s words; no exemption claimed', async () => {
    const rows = await rowsOf(TEXTBOOK);
    expect(rows.find((r) => r.subcategory === 'Accessibility Summary')).toMatchObject({
      code: null,
      detail: 'This publication conforms to WCAG 2.2 AA.',
    });
    expect(rows.find((r) => r.subcategory === 'Legal Considerations')?.code).toBe(
      'legal-considerations-no-metadata',
    );
    expect((await codes(a11y('76'))).includes('legal-considerations-exempt')).toBe(true);
  });
});

describe('ONIX techniques: additional accessibility information', () => {
  it('guidelines §Additional accessibility information: ARIA roles provided (30) is listed as "ARIA roles included", with page breaks (19)', async () => {
    expect((await codes(TEXTBOOK)).filter((c) => c?.startsWith('additional'))).toEqual([
      'additional-accessibility-information-aria',
      'additional-accessibility-information-page-breaks',
    ]);
  });

  it('techniques/onix §Additional accessibility information: each code in the technique’s order', async () => {
    const all = `<ProductFormDetail>V213</ProductFormDetail><ProductFormDetail>E205</ProductFormDetail><ProductFormDetail>A312</ProductFormDetail>${a11y(
      '37',
      '21',
      '19',
      '26',
      '27',
      '24',
      '25',
    )}`;
    expect((await codes(all)).filter((c) => c?.startsWith('additional'))).toEqual([
      'additional-accessibility-information-color-not-sole-means-of-conveying-information',
      'additional-accessibility-information-dyslexia-readability',
      'additional-accessibility-information-high-contrast-between-foreground-and-background-audio',
      'additional-accessibility-information-high-contrast-between-text-and-background',
      'additional-accessibility-information-page-breaks',
      'additional-accessibility-information-sign-language',
      'additional-accessibility-information-text-to-speech-hinting',
      'additional-accessibility-information-ultra-high-contrast-between-text-and-background',
      'additional-accessibility-information-visible-page-numbering',
      'additional-accessibility-information-without-background-sounds',
    ]);
  });
});
