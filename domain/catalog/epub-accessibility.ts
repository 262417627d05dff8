import { localName, xmlTokens } from '#domain/reading/xml-tokens.ts';
import { DISPLAY_GROUP, hazardStatements } from './accessibility-display.ts';
import type { AccessibilityStatementId } from './accessibility-metadata.ts';
import type { AccessibilityRow } from './onix/accessibility.ts';

// An EPUB's own accessibility metadata (its package document: schema.org accessMode,
// accessModeSufficient, accessibilityFeature, accessibilityHazard, accessibilitySummary,
// dcterms:conformsTo, a11y:certifiedBy, a11y:certifierCredential, a11y:certifierReport,
// a11y:exemption, rendition:layout) to the W3C "Accessibility Metadata Display Guide for
// Digital Publications" 2.1, following its EPUB techniques (w3c/publ-a11y,
// metadata-display-guide/techniques/epub) field by field (issue 15).

export type PackageMeta = {
  property: string;
  value: string;
  id: string | null;
  refines: string | null;
};
export type PackageLink = { rel: string; href: string; refines: string | null };
export type PackageMetadata = { metas: PackageMeta[]; links: PackageLink[] };

/** The package document's meta and link elements (EPUB 3 `property`, EPUB 2 `name`/`content`). */
export function packageMetadata(opf: string): PackageMetadata {
  const metas: PackageMeta[] = [];
  const links: PackageLink[] = [];
  let open: PackageMeta | null = null;
  for (const token of xmlTokens(opf)) {
    if (token.type === 'text') {
      if (open) open.value += token.text;
      continue;
    }
    const name = localName(token.name);
    if (token.type === 'close') {
      if (name === 'meta' && open) {
        open.value = open.value.replace(/\s+/g, ' ').trim();
        metas.push(open);
        open = null;
      }
      continue;
    }
    if (name === 'meta') {
      const property = token.attrs.get('property');
      const id = token.attrs.get('id') ?? null;
      const refines = token.attrs.get('refines')?.replace(/^#/, '') ?? null;
      if (property) {
        open = { property, value: '', id, refines };
        if (token.selfClosing) {
          metas.push(open);
          open = null;
        }
      } else {
        const metaName = token.attrs.get('name');
        const content = token.attrs.get('content');
        if (metaName && content) {
          metas.push({ property: metaName, value: content.trim(), id, refines });
        }
      }
    } else if (name === 'link') {
      const rel = token.attrs.get('rel');
      const href = token.attrs.get('href');
      if (rel && href) {
        links.push({ rel, href, refines: token.attrs.get('refines')?.replace(/^#/, '') ?? null });
      }
    }
  }
  return { metas, links };
}

const GROUP = DISPLAY_GROUP;

/**
 * The EPUB technique's is_fixed_layout: `rendition:layout` pre-paginated in the package's
 * metadata (EPUB 3.3 §5.2 Fixed layouts: the global value, which spine items may override).
 */
export function isFixedLayout(meta: PackageMetadata): boolean {
  return meta.metas.some(
    (m) => m.property === 'rendition:layout' && !m.refines && m.value === 'pre-paginated',
  );
}

const A11Y_PROPERTY = /^(schema:access|schema:accessibility|a11y:|dcterms:conformsTo$)/;

/**
 * The guide's statements for an EPUB, in the guide's field order; null when the package says
 * nothing about accessibility (the feed's statements then stand).
 */
export function epubAccessibilityRows(meta: PackageMetadata): AccessibilityRow[] | null {
  const { metas, links } = meta;
  if (!metas.some((m) => A11Y_PROPERTY.test(m.property) && !m.refines)) return null;
  const values = (property: string) =>
    metas.filter((m) => m.property === property && !m.refines).map((m) => m.value);
  const features = new Set(values('schema:accessibilityFeature'));
  const hazards = new Set(values('schema:accessibilityHazard'));
  const modes = values('schema:accessMode');
  const sufficient = values('schema:accessModeSufficient');
  const feature = (name: string) => features.has(name);
  const hazard = (name: string) => hazards.has(name);
  const rows: AccessibilityRow[] = [];
  const say = (
    group: string,
    code: AccessibilityStatementId,
    detail: string | null = null,
    url: string | null = null,
  ) => rows.push({ code, subcategory: group, name: code, detail, url });

  // Ways of reading: visual adjustments.
  const fixedLayout = isFixedLayout(meta);
  if (feature('displayTransformability'))
    say(GROUP.ways, 'ways-of-reading-visual-adjustments-modifiable');
  else if (fixedLayout) say(GROUP.ways, 'ways-of-reading-visual-adjustments-unmodifiable');
  else say(GROUP.ways, 'ways-of-reading-visual-adjustments-unknown');

  // Ways of reading: nonvisual reading.
  const allTextual =
    (modes.length === 1 && modes[0] === 'textual') || sufficient.some((s) => s === 'textual');
  const someText =
    modes.some((m) => m.includes('textual')) || sufficient.some((s) => s.includes('textual'));
  const alternatives = ['longDescription', 'alternativeText', 'describedMath', 'transcript'].some(
    feature,
  );
  const audioOnly = modes.length === 1 && modes[0] === 'auditory';
  const visualOnly =
    modes.length === 1 && modes[0] === 'visual' && !sufficient.some((s) => s.includes('textual'));
  if (allTextual) say(GROUP.ways, 'ways-of-reading-nonvisual-reading-readable');
  else if (someText || alternatives) say(GROUP.ways, 'ways-of-reading-nonvisual-reading-not-fully');
  else if (audioOnly || visualOnly) say(GROUP.ways, 'ways-of-reading-nonvisual-reading-none');
  else say(GROUP.ways, 'ways-of-reading-nonvisual-reading-no-metadata');
  if (alternatives) say(GROUP.ways, 'ways-of-reading-nonvisual-reading-alt-text');

  // Ways of reading: prerecorded audio.
  if (feature('synchronizedAudioText'))
    say(GROUP.ways, 'ways-of-reading-prerecorded-audio-synchronized');
  else if (sufficient.some((s) => s === 'auditory'))
    say(GROUP.ways, 'ways-of-reading-prerecorded-audio-only');
  else if (modes.some((m) => m === 'auditory'))
    say(GROUP.ways, 'ways-of-reading-prerecorded-audio-complementary');
  else say(GROUP.ways, 'ways-of-reading-prerecorded-audio-no-metadata');

  // Conformance: the claim, then who certified it, refining that claim (or refining nothing).
  const IDPF = 'http://www.idpf.org/epub/a11y/accessibility-20170105.html#wcag-';
  const claimMeta = metas.find(
    (m) =>
      m.property === 'dcterms:conformsTo' && /EPUB Accessibility 1\.1 - WCAG 2\./.test(m.value),
  );
  const idpf = [
    ...metas
      .filter((m) => m.property === 'dcterms:conformsTo')
      .map((m) => ({ value: m.value, id: m.id })),
    ...links
      .filter((l) => l.rel === 'dcterms:conformsTo')
      .map((l) => ({ value: l.href, id: null })),
  ].find((c) => c.value.startsWith(IDPF));
  let epub: string | null = null;
  let wcag: string | null = null;
  let level: string | null = null;
  let claimId: string | null = null;
  if (claimMeta) {
    epub = '1.1';
    wcag = /WCAG (2\.[0-2])/.exec(claimMeta.value)?.[1] ?? null;
    level = /Level (A{1,3})\b/.exec(claimMeta.value)?.[1] ?? null;
    claimId = claimMeta.id;
  } else if (idpf) {
    epub = '1.0';
    wcag = '2.0';
    level = idpf.value.slice(IDPF.length).toUpperCase();
    claimId = idpf.id;
  }
  const refiningClaim = (m: { refines: string | null }) =>
    m.refines === null || (claimId !== null && m.refines === claimId);
  const certifierMeta = metas.find((m) => m.property === 'a11y:certifiedBy' && refiningClaim(m));
  const refiningCertifier = (m: { refines: string | null }) =>
    m.refines === null ||
    (certifierMeta?.id !== null &&
      certifierMeta?.id !== undefined &&
      m.refines === certifierMeta.id);
  if (!epub && !wcag) say(GROUP.conformance, 'conformance-no');
  else {
    if (level === 'AAA') say(GROUP.conformance, 'conformance-aaa');
    else if (level === 'AA') say(GROUP.conformance, 'conformance-aa');
    else if (level === 'A') say(GROUP.conformance, 'conformance-a');
    else say(GROUP.conformance, 'conformance-unknown-standard');
    if (certifierMeta?.value) say(GROUP.conformance, 'conformance-certifier', certifierMeta.value);
    const credential = metas.find(
      (m) => m.property === 'a11y:certifierCredential' && refiningCertifier(m),
    );
    // "If the badge or credential is expressed as a URL, then the URL can be made a link."
    if (credential?.value) {
      const url = /^https?:\/\/\S+$/i.test(credential.value) ? credential.value : null;
      say(GROUP.conformance, 'conformance-certifier-credentials', credential.value, url);
    }
    if (epub && wcag && level && ['A', 'AA', 'AAA'].includes(level)) {
      say(
        GROUP.conformance,
        'conformance-details-claim',
        `EPUB Accessibility ${epub} - WCAG ${wcag} Level ${level}`,
      );
    }
    const date = certifierMeta
      ? metas.find(
          (m) => m.property === 'dcterms:date' && m.refines !== null && refiningCertifier(m),
        )
      : undefined;
    const day = date?.value.match(/^\d{4}-\d{2}-\d{2}/)?.[0];
    if (day) say(GROUP.conformance, 'conformance-details-certification-info', day);
    const report = links.find((l) => l.rel === 'a11y:certifierReport' && refiningCertifier(l));
    if (report && /^https?:\/\//i.test(report.href)) {
      say(GROUP.conformance, 'conformance-details-certifier-report', null, report.href);
    }
  }

  // Navigation, in the EPUB technique's order.
  const navigation = ['pageNavigation', 'structuralNavigation', 'index', 'tableOfContents'];
  if (!navigation.some(feature)) say(GROUP.navigation, 'navigation-no-metadata');
  if (feature('pageNavigation')) say(GROUP.navigation, 'navigation-page-navigation');
  if (feature('structuralNavigation')) say(GROUP.navigation, 'navigation-structural');
  if (feature('index')) say(GROUP.navigation, 'navigation-index');
  if (feature('tableOfContents')) say(GROUP.navigation, 'navigation-toc');

  // Rich content.
  if (feature('longDescription')) say(GROUP.rich, 'rich-content-extended');
  if (feature('latex-chemistry')) say(GROUP.rich, 'rich-content-accessible-chemistry-as-latex');
  if (feature('MathML-chemistry')) say(GROUP.rich, 'rich-content-accessible-chemistry-as-mathml');
  if (feature('describedMath')) say(GROUP.rich, 'rich-content-accessible-math-described');
  if (feature('latex')) say(GROUP.rich, 'rich-content-accessible-math-as-latex');
  if (feature('MathML')) say(GROUP.rich, 'rich-content-accessible-math-as-mathml');
  if (feature('closedCaptions')) say(GROUP.rich, 'rich-content-closed-captions');
  if (feature('openCaptions')) say(GROUP.rich, 'rich-content-open-captions');
  if (feature('transcript')) say(GROUP.rich, 'rich-content-transcript');
  const richKnown =
    feature('MathML') ||
    feature('latex') ||
    (feature('describedMath') && feature('longDescription')) ||
    feature('MathML-chemistry') ||
    feature('longDescription') ||
    feature('closedCaptions') ||
    feature('openCaptions') ||
    feature('transcript');
  if (!richKnown && !rows.some((r) => r.subcategory === GROUP.rich)) {
    say(GROUP.rich, 'rich-content-unknown');
  }

  // Hazards.
  for (const id of hazardStatements({
    none: hazard('none'),
    unknown: hazard('unknown'),
    flashing: hazard('flashing'),
    motion: hazard('motionSimulation'),
    sound: hazard('sound'),
    noFlashing: hazard('noFlashingHazard'),
    noMotion: hazard('noMotionSimulationHazard'),
    noSound: hazard('noSoundHazard'),
    unknownFlashing: hazard('unknownFlashingHazard'),
    unknownMotion: hazard('unknownMotionSimulationHazard'),
    unknownSound: hazard('unknownSoundHazard'),
  })) {
    say(GROUP.hazards, id);
  }

  // Accessibility summary: the publisher's words.
  const summary = values('schema:accessibilitySummary')[0];
  if (summary) {
    rows.push({
      code: null,
      subcategory: GROUP.summary,
      name: 'Accessibility summary',
      detail: summary,
      url: null,
    });
  } else say(GROUP.summary, 'accessibility-summary-no-metadata');

  // Legal considerations.
  const exemptions = new Set(values('a11y:exemption'));
  if (
    ['eaa-disproportionate-burden', 'eaa-fundamental-alteration', 'eaa-microenterprise'].some((e) =>
      exemptions.has(e),
    )
  ) {
    say(GROUP.legal, 'legal-considerations-exempt');
  } else say(GROUP.legal, 'legal-considerations-no-metadata');

  // Additional accessibility information, in the technique's order.
  if (feature('pageBreakMarkers') || feature('printPageNumbers')) {
    say(GROUP.more, 'additional-accessibility-information-page-breaks');
  }
  const more: [string, AccessibilityStatementId][] = [
    ['aria', 'additional-accessibility-information-aria'],
    ['audioDescription', 'additional-accessibility-information-audio-descriptions'],
    ['braille', 'additional-accessibility-information-braille'],
    ['fullRubyAnnotations', 'additional-accessibility-information-full-ruby-annotations'],
    [
      'highContrastAudio',
      'additional-accessibility-information-high-contrast-between-foreground-and-background-audio',
    ],
    [
      'highContrastDisplay',
      'additional-accessibility-information-high-contrast-between-text-and-background',
    ],
    ['largePrint', 'additional-accessibility-information-large-print'],
    ['rubyAnnotations', 'additional-accessibility-information-ruby-annotations'],
    ['signLanguage', 'additional-accessibility-information-sign-language'],
    ['tactileGraphic', 'additional-accessibility-information-tactile-graphics'],
    ['tactileObject', 'additional-accessibility-information-tactile-objects'],
    ['ttsMarkup', 'additional-accessibility-information-text-to-speech-hinting'],
  ];
  for (const [name, code] of more) if (feature(name)) say(GROUP.more, code);
  return rows;
}
