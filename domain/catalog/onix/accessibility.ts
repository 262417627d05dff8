import { DISPLAY_GROUP, hazardStatements } from '../accessibility-display.ts';
import type { AccessibilityStatementId } from '../accessibility-metadata.ts';
import { childrenOf, type OnixElement, pathOf, textOf } from './element.ts';

// ONIX accessibility metadata to the W3C "Accessibility Metadata Display Guide for Digital
// Publications" 2.1, following its ONIX techniques (w3c/publ-a11y, metadata-display-guide/
// techniques/onix) field by field. The inputs are ProductFormFeature type 09 (code list 196,
// e-publication accessibility detail) and, for hazards as the technique says, type 12 (list
// 143); ProductFormDetail (list 175) and content types (list 81). No other feature type is
// read, so nothing else can become an accessibility claim (issue 15).

/** One row of the product's accessibility features, in display order. */
export type AccessibilityRow = {
  /** A display guide statement id; null for the publisher's own text. */
  code: AccessibilityStatementId | null;
  subcategory: string;
  name: string;
  detail: string | null;
  url: string | null;
};

export type OnixAccessibilityFacts = {
  /** List 196 codes given with ProductFormFeatureType 09. */
  details: ReadonlySet<string>;
  /** ProductFormFeatureDescription by list 196 code. */
  descriptions: ReadonlyMap<string, string>;
  /** List 143 codes given with ProductFormFeatureType 12. */
  hazards: ReadonlySet<string>;
  /** List 175 ProductFormDetail codes. */
  formDetails: ReadonlySet<string>;
  /** List 81 PrimaryContentType and ProductContentType codes. */
  contentTypes: ReadonlySet<string>;
};

export function onixAccessibilityFacts(product: OnixElement): OnixAccessibilityFacts {
  const descriptive = pathOf(product, 'DescriptiveDetail');
  const details = new Set<string>();
  const descriptions = new Map<string, string>();
  const hazards = new Set<string>();
  for (const feature of childrenOf(descriptive, 'ProductFormFeature')) {
    const type = textOf(feature, 'ProductFormFeatureType');
    const value = textOf(feature, 'ProductFormFeatureValue');
    if (!value) continue;
    if (type === '09') {
      details.add(value);
      const description = textOf(feature, 'ProductFormFeatureDescription');
      if (description && !descriptions.has(value)) descriptions.set(value, description);
    } else if (type === '12') hazards.add(value);
  }
  const formDetails = new Set(
    childrenOf(descriptive, 'ProductFormDetail').map((d) => d.text.trim()),
  );
  const contentTypes = new Set(
    [
      ...childrenOf(descriptive, 'PrimaryContentType'),
      ...childrenOf(descriptive, 'ProductContentType'),
    ].map((c) => c.text.trim()),
  );
  return { details, descriptions, hazards, formDetails, contentTypes };
}

const GROUP = DISPLAY_GROUP;

const webAddress = (value: string) => (/^https?:\/\/\S+$/i.test(value) ? value : null);

/** The display guide's statements for an ONIX product, in the guide's field order. */
export function onixAccessibilityRows(facts: OnixAccessibilityFacts): AccessibilityRow[] {
  const rows: AccessibilityRow[] = [];
  const has = (code: string) => facts.details.has(code);
  const form = (code: string) => facts.formDetails.has(code);
  const content = (...codes: string[]) => codes.some((c) => facts.contentTypes.has(c));
  const say = (
    group: string,
    code: AccessibilityStatementId,
    detail: string | null = null,
    url: string | null = null,
  ) => rows.push({ code, subcategory: group, name: code, detail, url });
  const text = (code: string) => facts.descriptions.get(code)?.trim() || null;

  // Ways of reading: visual adjustments.
  if (has('36')) say(GROUP.ways, 'ways-of-reading-visual-adjustments-modifiable');
  else if (form('E201') && !form('E200')) {
    say(GROUP.ways, 'ways-of-reading-visual-adjustments-unmodifiable');
  } else say(GROUP.ways, 'ways-of-reading-visual-adjustments-unknown');

  // Ways of reading: nonvisual reading. Real text (list 81 code 10) is 'not fully readable'
  // unless 52 says more; the guide lets an implementer leave that out "when it is the only
  // accessibility-related information", and the store does, as it would then be a negative
  // claim made for a publisher who said nothing about accessibility.
  const textualAlternatives = has('14') || has('15') || has('16') || form('V212');
  const realText = content('10') && (facts.details.size > 0 || facts.hazards.size > 0);
  if (has('52')) say(GROUP.ways, 'ways-of-reading-nonvisual-reading-readable');
  else if (realText || textualAlternatives) {
    say(GROUP.ways, 'ways-of-reading-nonvisual-reading-not-fully');
  } else if (content('01') && !content('10')) {
    say(GROUP.ways, 'ways-of-reading-nonvisual-reading-none');
  } else say(GROUP.ways, 'ways-of-reading-nonvisual-reading-no-metadata');
  if (textualAlternatives) say(GROUP.ways, 'ways-of-reading-nonvisual-reading-alt-text');

  // Ways of reading: prerecorded audio.
  const synchronised = has('20') && form('A305');
  const audioInVideo = content('06', '25', '26', '27', '28', '29', '30');
  if (has('39') && !synchronised) say(GROUP.ways, 'ways-of-reading-prerecorded-audio-only');
  else if ((content('01', '21', '22') || audioInVideo) && !has('51')) {
    say(GROUP.ways, 'ways-of-reading-prerecorded-audio-complementary');
  } else if (has('51') && synchronised) {
    say(GROUP.ways, 'ways-of-reading-prerecorded-audio-synchronized');
  } else say(GROUP.ways, 'ways-of-reading-prerecorded-audio-no-metadata');

  // Conformance.
  const epub10 = has('02') || has('03');
  const epub11 = has('04');
  const levelA = has('84') || has('02');
  const levelAA = has('85') || has('03');
  const levelAAA = has('86');
  const wcag20 = has('80') || epub10;
  const wcag21 = has('81');
  const wcag22 = has('82');
  const anyLevel = levelA || levelAA || levelAAA;
  if (((epub10 || epub11 || wcag20 || wcag21 || wcag22) && anyLevel) || has('01')) {
    if (levelAAA) say(GROUP.conformance, 'conformance-aaa');
    else if (levelAA || has('01')) say(GROUP.conformance, 'conformance-aa');
    else say(GROUP.conformance, 'conformance-a');
  } else say(GROUP.conformance, 'conformance-no');
  const certifier = text('90');
  if (certifier) say(GROUP.conformance, 'conformance-certifier', certifier);
  // 93 is the certifier's address: "If the badge or credential is expressed as a URL, then the
  // URL can be made a link".
  const credentials = text('93');
  if (credentials) {
    say(
      GROUP.conformance,
      'conformance-certifier-credentials',
      credentials,
      webAddress(credentials),
    );
  }
  if ((epub10 || epub11) && (wcag20 || wcag21 || wcag22) && anyLevel) {
    const epub = epub11 ? '1.1' : '1.0';
    const wcag = wcag22 ? '2.2' : wcag21 ? '2.1' : '2.0';
    const level = levelAAA ? 'AAA' : levelAA ? 'AA' : 'A';
    say(
      GROUP.conformance,
      'conformance-details-claim',
      `EPUB Accessibility ${epub} - WCAG ${wcag} Level ${level}`,
    );
  }
  // 91 is a date, YYYYMMDD as list 196 asks (some feeds hyphenate it).
  const certified = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text('91') ?? '');
  if (certified) {
    const [, year, month, date] = certified;
    say(GROUP.conformance, 'conformance-details-certification-info', `${year}-${month}-${date}`);
  }
  const report = webAddress(text('94') ?? '');
  if (report) say(GROUP.conformance, 'conformance-details-certifier-report', null, report);

  // Navigation.
  const navigation = (['11', '12', '41', '29'] as const).filter(has);
  if (navigation.length === 0) say(GROUP.navigation, 'navigation-no-metadata');
  if (has('11')) say(GROUP.navigation, 'navigation-toc');
  if (has('12')) say(GROUP.navigation, 'navigation-index');
  if (has('41')) say(GROUP.navigation, 'navigation-page-navigation');
  if (has('29')) say(GROUP.navigation, 'navigation-structural');

  // Rich content.
  const richBefore = rows.length;
  if (has('17')) say(GROUP.rich, 'rich-content-accessible-math-as-mathml');
  if (has('35')) say(GROUP.rich, 'rich-content-accessible-math-as-latex');
  if (has('53')) say(GROUP.rich, 'rich-content-accessible-math-described');
  if (has('34')) say(GROUP.rich, 'rich-content-accessible-chemistry-as-mathml');
  if (has('54')) say(GROUP.rich, 'rich-content-accessible-chemistry-as-latex');
  if (has('16') || has('15')) say(GROUP.rich, 'rich-content-extended');
  if (form('V210')) say(GROUP.rich, 'rich-content-closed-captions');
  if (form('V211')) say(GROUP.rich, 'rich-content-open-captions');
  if (form('V212')) say(GROUP.rich, 'rich-content-transcript');
  if (rows.length === richBefore) say(GROUP.rich, 'rich-content-unknown');

  // Hazards (list 143 through feature type 12; 196/08 unknown accessibility).
  const hazard = (code: string) => facts.hazards.has(code);
  for (const id of hazardStatements({
    none: hazard('00'),
    unknown: has('08'),
    flashing: hazard('13'),
    motion: hazard('17'),
    sound: hazard('15'),
    noFlashing: hazard('14'),
    noMotion: hazard('18'),
    noSound: hazard('16'),
    unknownFlashing: hazard('24'),
    unknownMotion: hazard('26'),
    unknownSound: hazard('25'),
  })) {
    say(GROUP.hazards, id);
  }

  // Accessibility summary: the publisher's own words.
  const own = (name: string, detail: string) =>
    rows.push({ code: null, subcategory: GROUP.summary, name, detail, url: null });
  const limited = text('09');
  if (limited) own('Known limited accessibility', limited);
  const addendum = text('92');
  const summary = text('00');
  if (addendum) own('Accessibility addendum', addendum);
  else if (summary) own('Accessibility summary', summary);
  else if (!limited) say(GROUP.summary, 'accessibility-summary-no-metadata');
  const contact = text('99');
  if (contact && /^[^\s@]+@[^\s@]+$/.test(contact)) {
    say(GROUP.summary, 'accessibility-summary-publisher-contact', contact, `mailto:${contact}`);
  }

  // Legal considerations.
  if (has('75') || has('76') || has('77')) say(GROUP.legal, 'legal-considerations-exempt');
  else say(GROUP.legal, 'legal-considerations-no-metadata');

  // Additional accessibility information, in the technique's order. ARIA (30, "ARIA roles
  // provided") is not in the ONIX technique's list, which the guide says is not complete
  // ("implementers may choose to display metadata that is not covered"): it is the EPUB
  // technique's `aria`, worded as the guide words it, first as in its alphabetical list.
  if (has('30')) say(GROUP.more, 'additional-accessibility-information-aria');
  if (has('25')) {
    say(
      GROUP.more,
      'additional-accessibility-information-color-not-sole-means-of-conveying-information',
    );
  }
  if (has('24')) say(GROUP.more, 'additional-accessibility-information-dyslexia-readability');
  if (has('27')) {
    say(
      GROUP.more,
      'additional-accessibility-information-high-contrast-between-foreground-and-background-audio',
    );
  }
  if (has('26')) {
    say(
      GROUP.more,
      'additional-accessibility-information-high-contrast-between-text-and-background',
    );
  }
  if (has('19')) say(GROUP.more, 'additional-accessibility-information-page-breaks');
  if (form('V213')) say(GROUP.more, 'additional-accessibility-information-sign-language');
  if (has('21')) say(GROUP.more, 'additional-accessibility-information-text-to-speech-hinting');
  if (has('37')) {
    say(
      GROUP.more,
      'additional-accessibility-information-ultra-high-contrast-between-text-and-background',
    );
  }
  if (form('E205')) say(GROUP.more, 'additional-accessibility-information-visible-page-numbering');
  if (form('A312'))
    say(GROUP.more, 'additional-accessibility-information-without-background-sounds');
  return rows;
}
