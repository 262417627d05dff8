// Product feature rows of the demo (spec 1 §3 Product feature: category, subcategory, name,
// detail, url). Features come from a fixed list of templates and each product only picks
// template numbers: a million-product catalogue then ships two small integers per feature row
// to the database instead of the same sentences millions of times.
import type { Random } from './content/random.ts';

export type FeatureTemplate = {
  category: 'ebook' | 'accessibility' | 'classroom' | 'supplemental' | 'collection' | 'courseware';
  subcategory: string | null;
  /** A store feature code or a W3C display guide statement id; null for a publisher's text. */
  code: string | null;
  name: string;
  detail: string | null;
  url: string | null;
  position: number;
};

// Fictional certifier: the demo must not claim a real organisation certified invented books.
export const DEMO_CERTIFIER = 'Open Reading Accessibility Review';
export const DEMO_CERTIFIER_URL = 'https://accessibility.example.org/certification';

const templates: FeatureTemplate[] = [];
function add(
  category: FeatureTemplate['category'],
  subcategory: string | null,
  code: string | null,
  name: string,
  detail: string | null,
  position: number,
  url: string | null = null,
): number {
  templates.push({ category, subcategory, code, name, detail, url, position });
  return templates.length - 1;
}

// eBook features (the 'eBook Features' tab): the store's reader, described by the store in the
// page's language (domain/catalog/product-features.ts); name and detail are its English words.
const EBOOK = {
  readAloud: add(
    'ebook',
    null,
    'read-aloud',
    'Read Aloud',
    'Listen to the text with built-in text-to-speech.',
    0,
  ),
  search: add(
    'ebook',
    null,
    'search',
    'Search',
    'Find any word or phrase across the whole book.',
    1,
  ),
  highlights: add(
    'ebook',
    null,
    'highlights',
    'Highlights and Notes',
    'Highlight passages in several colours and keep notes beside them.',
    2,
  ),
  offline: add(
    'ebook',
    null,
    'offline',
    'Offline Reading',
    'Download the book and read without a connection.',
    3,
  ),
  flashcards: add(
    'ebook',
    null,
    'flashcards',
    'Flashcards',
    'Turn highlights into flashcards to study with.',
    4,
  ),
  citations: add(
    'ebook',
    null,
    'citations',
    'Citation Tools',
    'Copy a citation in APA, MLA or Chicago style.',
    5,
  ),
  print: add(
    'ebook',
    null,
    'printing',
    'Printing',
    'Print selected pages within the publisher allowance.',
    6,
  ),
};

// Accessibility metadata, grouped and worded after the W3C "Accessibility Metadata Display
// Guide for Digital Publications" (key information first: ways of reading, conformance,
// navigation, rich content, hazards, summary, legal considerations, additional information).
// Each row the guide words has its statement id as code (pages show the guide's wording in
// their language) and the guide's compact English as detail; the summary is the publisher's.
const WAYS = 'Ways of Reading';
const CONFORMANCE = 'Conformance';
const NAVIGATION = 'Navigation';
const RICH = 'Rich Content';
const HAZARDS = 'Hazards';
const SUMMARY = 'Accessibility Summary';
const LEGAL = 'Legal Considerations';
const ADDITIONAL = 'Additional Accessibility Information';

const A11Y = {
  appearanceModifiable: add(
    'accessibility',
    WAYS,
    'ways-of-reading-visual-adjustments-modifiable',
    'Visual adjustments',
    'Appearance can be modified',
    0,
  ),
  readAloud: add(
    'accessibility',
    WAYS,
    'ways-of-reading-nonvisual-reading-readable',
    'Nonvisual reading',
    'Readable in read aloud or dynamic braille',
    1,
  ),
  notFullyReadable: add(
    'accessibility',
    WAYS,
    'ways-of-reading-nonvisual-reading-not-fully',
    'Nonvisual reading',
    'Not fully readable in read aloud or dynamic braille',
    1,
  ),
  altText: add(
    'accessibility',
    WAYS,
    'ways-of-reading-nonvisual-reading-alt-text',
    'Nonvisual reading',
    'Has alternative text',
    2,
  ),
  meetsAccepted: add(
    'accessibility',
    CONFORMANCE,
    'conformance-aa',
    'Conformance',
    'This publication meets accepted accessibility standards',
    10,
  ),
  meetsMinimum: add(
    'accessibility',
    CONFORMANCE,
    'conformance-a',
    'Conformance',
    'This publication meets minimum accessibility standards',
    10,
  ),
  noConformance: add(
    'accessibility',
    CONFORMANCE,
    'conformance-no',
    'Conformance',
    'No information is available',
    10,
  ),
  // The detail is EPUB Accessibility's dcterms:conformsTo value, which the guide words.
  wcagAA: add(
    'accessibility',
    CONFORMANCE,
    'conformance-details-claim',
    'Standard',
    'EPUB Accessibility 1.1 - WCAG 2.1 Level AA',
    11,
  ),
  wcagA: add(
    'accessibility',
    CONFORMANCE,
    'conformance-details-claim',
    'Standard',
    'EPUB Accessibility 1.0 - WCAG 2.0 Level A',
    11,
  ),
  certifier: add(
    'accessibility',
    CONFORMANCE,
    'conformance-certifier',
    'Certifier',
    DEMO_CERTIFIER,
    12,
    DEMO_CERTIFIER_URL,
  ),
  toc: add(
    'accessibility',
    NAVIGATION,
    'navigation-toc',
    'Table of contents',
    'Table of contents',
    20,
  ),
  headings: add('accessibility', NAVIGATION, 'navigation-structural', 'Headings', 'Headings', 21),
  pageList: add(
    'accessibility',
    NAVIGATION,
    'navigation-page-navigation',
    'Go to page',
    'Go to page',
    22,
  ),
  index: add('accessibility', NAVIGATION, 'navigation-index', 'Index', 'Index', 23),
  math: add(
    'accessibility',
    RICH,
    'rich-content-accessible-math-as-mathml',
    'Math',
    'Math as MathML',
    30,
  ),
  charts: add(
    'accessibility',
    RICH,
    'rich-content-extended',
    'Charts and graphs',
    'Information-rich images are described by extended descriptions',
    31,
  ),
  richUnknown: add(
    'accessibility',
    RICH,
    'rich-content-unknown',
    'Rich content',
    'No information is available',
    30,
  ),
  noHazards: add('accessibility', HAZARDS, 'hazards-none', 'Hazards', 'No hazards', 40),
  flashing: add('accessibility', HAZARDS, 'hazards-flashing', 'Hazards', 'Flashing content', 40),
  motion: add('accessibility', HAZARDS, 'hazards-motion', 'Hazards', 'Motion simulation', 41),
  hazardsUnknown: add(
    'accessibility',
    HAZARDS,
    'hazards-unknown',
    'Hazards',
    'The presence of hazards is unknown',
    40,
  ),
  // The publisher's accessibility summary: its own words, in the book's language.
  summaryFull: add(
    'accessibility',
    SUMMARY,
    null,
    'Summary',
    'This publication conforms to WCAG 2.1 Level AA. It has a logical reading order, headings for every chapter, alternative text for every image and a navigable table of contents.',
    50,
  ),
  summaryBasic: add(
    'accessibility',
    SUMMARY,
    null,
    'Summary',
    'This publication has a table of contents and a logical reading order. Images may not have alternative text.',
    50,
  ),
  noLegal: add(
    'accessibility',
    LEGAL,
    'legal-considerations-no-metadata',
    'Exemption',
    'No information is available',
    60,
  ),
  exemption: add(
    'accessibility',
    LEGAL,
    'legal-considerations-exempt',
    'Exemption',
    'Claims an accessibility exemption in some jurisdictions',
    60,
  ),
  pageBreaks: add(
    'accessibility',
    ADDITIONAL,
    'additional-accessibility-information-page-breaks',
    'Page breaks',
    'Page breaks included',
    70,
  ),
  aria: add(
    'accessibility',
    ADDITIONAL,
    'additional-accessibility-information-aria',
    'ARIA',
    'ARIA roles included',
    71,
  ),
  contrast: add(
    'accessibility',
    ADDITIONAL,
    'additional-accessibility-information-high-contrast-between-text-and-background',
    'Contrast',
    'High contrast between foreground text and background',
    72,
  ),
  ttsHints: add(
    'accessibility',
    ADDITIONAL,
    'additional-accessibility-information-text-to-speech-hinting',
    'Speech',
    'Text-to-speech hinting provided',
    73,
  ),
};

const CLASSROOM = [
  add(
    'classroom',
    null,
    'section-discussions',
    'Section Discussions',
    'Talk through readings with your section.',
    0,
  ),
  add(
    'classroom',
    null,
    'shared-annotations',
    'Shared Annotations',
    'See the notes your instructor adds to the text.',
    1,
  ),
  add('classroom', null, 'assignments', 'Assignments', 'Reading assignments with due dates.', 2),
  add(
    'classroom',
    null,
    'engagement-insights',
    'Engagement Insights',
    'Instructors see who has started each reading.',
    3,
  ),
];
const SUPPLEMENTAL = [
  add('supplemental', null, 'lecture-slides', 'Lecture Slides', 'Slides for every chapter.', 0),
  add(
    'supplemental',
    null,
    'practice-quizzes',
    'Practice Quizzes',
    'Self-check quizzes with answers.',
    1,
  ),
  add(
    'supplemental',
    null,
    'video-walkthroughs',
    'Video Walkthroughs',
    'Short videos of worked examples.',
    2,
  ),
];
const COLLECTION = [
  add(
    'collection',
    null,
    'one-subscription',
    'One Subscription',
    'Every title in the collection with one purchase.',
    0,
  ),
  add(
    'collection',
    null,
    'cross-title-search',
    'Cross-title Search',
    'Search all titles in the collection at once.',
    1,
  ),
];
const COURSEWARE = [
  add(
    'courseware',
    null,
    'adaptive-practice',
    'Adaptive Practice',
    'Questions adjust to what you already know.',
    0,
  ),
  add(
    'courseware',
    null,
    'auto-graded-homework',
    'Auto-graded Homework',
    'Instant feedback on every attempt.',
    1,
  ),
  add(
    'courseware',
    null,
    'gradebook-sync',
    'Gradebook Sync',
    'Scores flow into your course gradebook.',
    2,
  ),
];

export const FEATURE_TEMPLATES: readonly FeatureTemplate[] = templates;

/** 'eBook Features' rows for a digital book. */
export function ebookFeatures(r: Random, o: { textToSpeech: boolean; printing: boolean }) {
  const out = [EBOOK.search, EBOOK.highlights];
  if (o.textToSpeech) out.unshift(EBOOK.readAloud);
  if (r.chance(0.6)) out.push(EBOOK.offline);
  if (r.chance(0.4)) out.push(EBOOK.flashcards);
  if (r.chance(0.3)) out.push(EBOOK.citations);
  if (o.printing) out.push(EBOOK.print);
  return out;
}

/**
 * Accessibility metadata for an EPUB. `level` spreads the catalogue over well described,
 * partly described and barely described books, so the 'Not provided' fallback shows too.
 */
export function accessibilityFeatures(
  r: Random,
  o: { textToSpeech: boolean; certified: boolean },
): number[] {
  // Like real catalogues: most publishers describe little; a certified few describe it all.
  const u = r.next();
  const level = o.certified || u < 0.2 ? 0 : u < 0.5 ? 1 : 2;
  if (level === 2) return [A11Y.appearanceModifiable, A11Y.noConformance, A11Y.hazardsUnknown];
  const out: number[] = [A11Y.appearanceModifiable];
  out.push(level === 0 || o.textToSpeech ? A11Y.readAloud : A11Y.notFullyReadable);
  if (level === 0) out.push(A11Y.altText);
  // Level A claims 'minimum', level AA 'accepted' standards (display guide, Conformance).
  out.push(...(level === 0 ? [A11Y.meetsAccepted, A11Y.wcagAA] : [A11Y.meetsMinimum, A11Y.wcagA]));
  if (o.certified) out.push(A11Y.certifier);
  out.push(A11Y.toc, A11Y.headings);
  if (level === 0 || r.chance(0.5)) out.push(A11Y.pageList);
  if (r.chance(0.3)) out.push(A11Y.index);
  if (level === 0) out.push(r.chance(0.5) ? A11Y.math : A11Y.charts);
  else out.push(A11Y.richUnknown);
  const hazard = r.next();
  if (hazard < 0.85) out.push(A11Y.noHazards);
  else if (hazard < 0.93) out.push(A11Y.flashing);
  else out.push(A11Y.flashing, A11Y.motion);
  out.push(level === 0 ? A11Y.summaryFull : A11Y.summaryBasic);
  out.push(r.chance(0.9) ? A11Y.noLegal : A11Y.exemption);
  if (level === 0) out.push(A11Y.pageBreaks, A11Y.aria, A11Y.contrast);
  if (o.textToSpeech) out.push(A11Y.ttsHints);
  return out;
}

export function classroomFeatures(r: Random): number[] {
  return [
    ...CLASSROOM.filter((_, i) => i < 2 || r.chance(0.6)),
    ...SUPPLEMENTAL.filter((_, i) => i === 0 || r.chance(0.7)),
  ];
}

export function collectionFeatures(): number[] {
  return [...COLLECTION];
}

export function coursewareFeatures(r: Random): number[] {
  return COURSEWARE.filter((_, i) => i === 0 || r.chance(0.7));
}
