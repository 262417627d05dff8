import type { Wording } from '#domain/shared/wording.ts';

// spec 1 §2 Accessibility metadata modal, following the W3C "Accessibility Metadata Display
// Guide for Digital Publications" (2.x, guidelines §3 Display fields): fixed groups in a fixed
// order, each shown even when empty ('Not provided').
export const ACCESSIBILITY_GROUPS = [
  'Ways of Reading',
  'Conformance',
  'Navigation',
  'Rich Content',
  'Hazards',
  'Accessibility Summary',
  'Legal Considerations',
  'Additional Accessibility Information',
] as const;
export type AccessibilityGroupName = (typeof ACCESSIBILITY_GROUPS)[number];

/** The groups shown on the ACCESSIBILITY tab before 'See all accessibility metadata'. */
export const KEY_ACCESSIBILITY_GROUPS = ['Ways of Reading', 'Conformance', 'Navigation'] as const;

/**
 * The guide's statements, by the localization id it gives each one (the guidelines'
 * `data-localization-id`, the keys of its localization files), and the group each is shown in.
 * A metadata row carrying one of these ids as its code is the store's own statement: the page
 * shows the guide's wording in its language (message `a11y.statement.<id>`, the guide's
 * compact English and its French localization).
 */
export const ACCESSIBILITY_STATEMENTS = {
  'ways-of-reading-visual-adjustments-modifiable': 'Ways of Reading',
  'ways-of-reading-visual-adjustments-unmodifiable': 'Ways of Reading',
  'ways-of-reading-visual-adjustments-unknown': 'Ways of Reading',
  'ways-of-reading-nonvisual-reading-readable': 'Ways of Reading',
  'ways-of-reading-nonvisual-reading-not-fully': 'Ways of Reading',
  'ways-of-reading-nonvisual-reading-none': 'Ways of Reading',
  'ways-of-reading-nonvisual-reading-no-metadata': 'Ways of Reading',
  'ways-of-reading-nonvisual-reading-alt-text': 'Ways of Reading',
  'ways-of-reading-prerecorded-audio-only': 'Ways of Reading',
  'ways-of-reading-prerecorded-audio-synchronized': 'Ways of Reading',
  'ways-of-reading-prerecorded-audio-complementary': 'Ways of Reading',
  'ways-of-reading-prerecorded-audio-no-metadata': 'Ways of Reading',
  'conformance-a': 'Conformance',
  'conformance-aa': 'Conformance',
  'conformance-aaa': 'Conformance',
  'conformance-no': 'Conformance',
  'conformance-unknown-standard': 'Conformance',
  'conformance-certifier': 'Conformance',
  'conformance-certifier-credentials': 'Conformance',
  'conformance-details-claim': 'Conformance',
  'conformance-details-certification-info': 'Conformance',
  'conformance-details-certifier-report': 'Conformance',
  'navigation-toc': 'Navigation',
  'navigation-index': 'Navigation',
  'navigation-structural': 'Navigation',
  'navigation-page-navigation': 'Navigation',
  'navigation-no-metadata': 'Navigation',
  'rich-content-accessible-math-as-mathml': 'Rich Content',
  'rich-content-accessible-math-as-latex': 'Rich Content',
  'rich-content-accessible-math-described': 'Rich Content',
  'rich-content-accessible-chemistry-as-mathml': 'Rich Content',
  'rich-content-accessible-chemistry-as-latex': 'Rich Content',
  'rich-content-extended': 'Rich Content',
  'rich-content-closed-captions': 'Rich Content',
  'rich-content-open-captions': 'Rich Content',
  'rich-content-transcript': 'Rich Content',
  'rich-content-unknown': 'Rich Content',
  'hazards-none': 'Hazards',
  'hazards-unknown': 'Hazards',
  'hazards-flashing': 'Hazards',
  'hazards-flashing-none': 'Hazards',
  'hazards-flashing-unknown': 'Hazards',
  'hazards-motion': 'Hazards',
  'hazards-motion-none': 'Hazards',
  'hazards-motion-unknown': 'Hazards',
  'hazards-sound': 'Hazards',
  'hazards-sound-none': 'Hazards',
  'hazards-sound-unknown': 'Hazards',
  'hazards-no-metadata': 'Hazards',
  'accessibility-summary-no-metadata': 'Accessibility Summary',
  'accessibility-summary-publisher-contact': 'Accessibility Summary',
  'legal-considerations-exempt': 'Legal Considerations',
  'legal-considerations-no-metadata': 'Legal Considerations',
  'additional-accessibility-information-aria': 'Additional Accessibility Information',
  'additional-accessibility-information-page-breaks': 'Additional Accessibility Information',
  'additional-accessibility-information-tactile-graphics': 'Additional Accessibility Information',
  'additional-accessibility-information-audio-descriptions': 'Additional Accessibility Information',
  'additional-accessibility-information-braille': 'Additional Accessibility Information',
  'additional-accessibility-information-color-not-sole-means-of-conveying-information':
    'Additional Accessibility Information',
  'additional-accessibility-information-dyslexia-readability':
    'Additional Accessibility Information',
  'additional-accessibility-information-full-ruby-annotations':
    'Additional Accessibility Information',
  'additional-accessibility-information-ruby-annotations': 'Additional Accessibility Information',
  'additional-accessibility-information-high-contrast-between-foreground-and-background-audio':
    'Additional Accessibility Information',
  'additional-accessibility-information-high-contrast-between-text-and-background':
    'Additional Accessibility Information',
  'additional-accessibility-information-ultra-high-contrast-between-text-and-background':
    'Additional Accessibility Information',
  'additional-accessibility-information-large-print': 'Additional Accessibility Information',
  'additional-accessibility-information-sign-language': 'Additional Accessibility Information',
  'additional-accessibility-information-tactile-objects': 'Additional Accessibility Information',
  'additional-accessibility-information-text-to-speech-hinting':
    'Additional Accessibility Information',
  'additional-accessibility-information-visible-page-numbering':
    'Additional Accessibility Information',
  'additional-accessibility-information-without-background-sounds':
    'Additional Accessibility Information',
} as const satisfies Record<string, AccessibilityGroupName>;
export type AccessibilityStatementId = keyof typeof ACCESSIBILITY_STATEMENTS;

export function isAccessibilityStatement(code: string | null): code is AccessibilityStatementId {
  return code !== null && Object.hasOwn(ACCESSIBILITY_STATEMENTS, code);
}

/** The message of a statement; the certifier's is the catalog's 'Certified by' message. */
export function statementMessage(id: AccessibilityStatementId): string {
  return id === 'conformance-certifier' ? 'a11y.certifiedBy' : `a11y.statement.${id}`;
}

// dcterms:conformsTo of EPUB Accessibility (EPUB Accessibility 1.1 §2.1 Conformance
// requirements): 'EPUB Accessibility 1.1 - WCAG 2.1 Level AA'.
const CONFORMS_TO = /^EPUB Accessibility (1\.[01]) - WCAG (2\.[0-2]) Level (A{1,3})$/;

/**
 * The guide's detailed conformance claim ('This publication claims to meet EPUB Accessibility
 * 1.1 WCAG 2.1 Level AA') built from the conformsTo value, or null when the value is not one
 * the guide can word.
 */
export function conformanceClaim(conformsTo: string | null): Wording | null {
  const match = conformsTo ? CONFORMS_TO.exec(conformsTo.trim()) : null;
  if (!match) return null;
  const [, epub, wcag, level] = match as unknown as [string, string, string, string];
  return {
    message: 'a11y.statement.conformance-details-claim',
    values: { epub, wcag, level },
  };
}

export type FeatureRow = {
  category: string;
  subcategory: string | null;
  /** A guide statement id (accessibility) or a store feature code; null for a source's text. */
  code: string | null;
  name: string;
  detail: string | null;
  url: string | null;
};

export type AccessibilityItem = {
  /** The guide's statement in the page's language, or the source's text as given. */
  wording: Wording;
  url: string | null;
  isCertifier: boolean;
};
export type AccessibilityGroup = { name: AccessibilityGroupName; items: AccessibilityItem[] };

function groupOf(row: FeatureRow): AccessibilityGroupName {
  if (isAccessibilityStatement(row.code)) return ACCESSIBILITY_STATEMENTS[row.code];
  const known = ACCESSIBILITY_GROUPS as readonly string[];
  // A row the guide has no statement for keeps the group its source gave it, else the last.
  return known.includes(row.subcategory ?? '')
    ? (row.subcategory as AccessibilityGroupName)
    : 'Additional Accessibility Information';
}

/** A day ('2024-03-15') as the page's language writes it; the text as given otherwise. */
function longDate(day: string, locale: string): string {
  const at = /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T00:00:00Z`) : null;
  if (!at || Number.isNaN(at.getTime())) return day;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(at);
}

function wordingOf(row: FeatureRow, locale: string): Wording {
  const source: Wording = { text: row.detail ?? row.name };
  if (!isAccessibilityStatement(row.code)) return source;
  const message = statementMessage(row.code);
  const detail = row.detail ?? row.name;
  switch (row.code) {
    case 'conformance-details-claim':
      return conformanceClaim(row.detail) ?? source;
    case 'conformance-certifier':
      return { message, values: { name: detail } };
    case 'conformance-certifier-credentials':
      return { message, values: { credential: detail } };
    case 'conformance-details-certification-info':
      return { message, values: { date: longDate(detail, locale) } };
    case 'accessibility-summary-publisher-contact':
      return { message, values: { contact: detail } };
    default:
      return { message };
  }
}

function isCertifierRow(row: FeatureRow): boolean {
  return row.code === 'conformance-certifier' || (row.code === null && row.name === 'Certifier');
}

export function accessibilityGroups(
  rows: readonly FeatureRow[],
  locale = 'en',
): AccessibilityGroup[] {
  const accessibility = rows.filter((r) => r.category === 'accessibility');
  const certifier = accessibility.find(isCertifierRow)?.detail ?? null;
  const groups: AccessibilityGroup[] = ACCESSIBILITY_GROUPS.map((name) => ({ name, items: [] }));
  // Each row in its group, in the order given.
  for (const row of accessibility) {
    groups
      .find((g) => g.name === groupOf(row))!
      .items.push({
        wording: wordingOf(row, locale),
        url: row.url,
        // A detail equal to the certifier shows a certification logo and link (spec 1 §2).
        isCertifier: certifier !== null && row.detail === certifier,
      });
  }
  return groups;
}
