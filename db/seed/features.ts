// Product feature rows of the demo (spec 1 §3 Product feature: category, subcategory, name,
// detail, url). Features come from a fixed list of templates and each product only picks
// template numbers: a million-product catalogue then ships two small integers per feature row
// to the database instead of the same sentences millions of times.
import type { Random } from './content/random.ts';

export type FeatureTemplate = {
  category: 'ebook' | 'accessibility' | 'classroom' | 'supplemental' | 'collection' | 'courseware';
  subcategory: string | null;
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
  name: string,
  detail: string | null,
  position: number,
  url: string | null = null,
): number {
  templates.push({ category, subcategory, name, detail, url, position });
  return templates.length - 1;
}

// eBook features (the 'eBook Features' tab).
const EBOOK = {
  readAloud: add(
    'ebook',
    null,
    'Read Aloud',
    'Listen to the text with built-in text-to-speech.',
    0,
  ),
  search: add('ebook', null, 'Search', 'Find any word or phrase across the whole book.', 1),
  highlights: add(
    'ebook',
    null,
    'Highlights and Notes',
    'Highlight passages in several colours and keep notes beside them.',
    2,
  ),
  offline: add(
    'ebook',
    null,
    'Offline Reading',
    'Download the book and read without a connection.',
    3,
  ),
  flashcards: add('ebook', null, 'Flashcards', 'Turn highlights into flashcards to study with.', 4),
  citations: add(
    'ebook',
    null,
    'Citation Tools',
    'Copy a citation in APA, MLA or Chicago style.',
    5,
  ),
  print: add('ebook', null, 'Printing', 'Print selected pages within the publisher allowance.', 6),
};

// Accessibility metadata, grouped and worded after the W3C "EPUB Accessibility Metadata Display
// Guide" (key information first: ways of reading, conformance, navigation, rich content,
// hazards, summary, legal considerations, additional information).
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
    'Visual adjustments',
    'Appearance can be modified',
    0,
  ),
  readAloud: add(
    'accessibility',
    WAYS,
    'Nonvisual reading',
    'Readable in read aloud or dynamic braille',
    1,
  ),
  notFullyReadable: add(
    'accessibility',
    WAYS,
    'Nonvisual reading',
    'Not fully readable in read aloud or dynamic braille',
    1,
  ),
  altText: add('accessibility', WAYS, 'Nonvisual reading', 'Has alternative text', 2),
  meetsStandards: add(
    'accessibility',
    CONFORMANCE,
    'Conformance',
    'This publication meets accepted accessibility standards',
    10,
  ),
  noConformance: add(
    'accessibility',
    CONFORMANCE,
    'Conformance',
    'No information is available',
    10,
  ),
  wcagAA: add(
    'accessibility',
    CONFORMANCE,
    'Standard',
    'EPUB Accessibility 1.1 - WCAG 2.1 Level AA',
    11,
  ),
  wcagA: add(
    'accessibility',
    CONFORMANCE,
    'Standard',
    'EPUB Accessibility 1.0 - WCAG 2.0 Level A',
    11,
  ),
  certifier: add('accessibility', CONFORMANCE, 'Certifier', DEMO_CERTIFIER, 12, DEMO_CERTIFIER_URL),
  toc: add('accessibility', NAVIGATION, 'Table of contents', 'Table of contents', 20),
  headings: add(
    'accessibility',
    NAVIGATION,
    'Headings',
    'Elements such as headings, tables, etc for structured navigation',
    21,
  ),
  pageList: add(
    'accessibility',
    NAVIGATION,
    'Go to page',
    'Page list to go to pages from the print source version',
    22,
  ),
  index: add('accessibility', NAVIGATION, 'Index', 'Index with links to referenced entries', 23),
  math: add('accessibility', RICH, 'Math', 'Math formulas in accessible format (MathML)', 30),
  charts: add(
    'accessibility',
    RICH,
    'Charts and graphs',
    'Information-rich images are described by extended descriptions',
    31,
  ),
  richUnknown: add('accessibility', RICH, 'Rich content', 'No information is available', 30),
  noHazards: add('accessibility', HAZARDS, 'Hazards', 'No hazards', 40),
  flashing: add('accessibility', HAZARDS, 'Hazards', 'Flashing content', 40),
  motion: add('accessibility', HAZARDS, 'Hazards', 'Motion simulation', 41),
  hazardsUnknown: add(
    'accessibility',
    HAZARDS,
    'Hazards',
    'The presence of hazards is unknown',
    40,
  ),
  summaryFull: add(
    'accessibility',
    SUMMARY,
    'Summary',
    'This publication conforms to WCAG 2.1 Level AA. It has a logical reading order, headings for every chapter, alternative text for every image and a navigable table of contents.',
    50,
  ),
  summaryBasic: add(
    'accessibility',
    SUMMARY,
    'Summary',
    'This publication has a table of contents and a logical reading order. Images may not have alternative text.',
    50,
  ),
  noLegal: add('accessibility', LEGAL, 'Exemption', 'No legal considerations', 60),
  exemption: add(
    'accessibility',
    LEGAL,
    'Exemption',
    'Claims an accessibility exemption in some jurisdictions',
    60,
  ),
  pageBreaks: add('accessibility', ADDITIONAL, 'Page breaks', 'Page breaks included', 70),
  aria: add('accessibility', ADDITIONAL, 'ARIA', 'ARIA roles included', 71),
  contrast: add(
    'accessibility',
    ADDITIONAL,
    'Contrast',
    'High contrast between foreground text and background',
    72,
  ),
  ttsHints: add('accessibility', ADDITIONAL, 'Speech', 'Text-to-speech hinting provided', 73),
};

const CLASSROOM = [
  add('classroom', null, 'Section Discussions', 'Talk through readings with your section.', 0),
  add(
    'classroom',
    null,
    'Shared Annotations',
    'See the notes your instructor adds to the text.',
    1,
  ),
  add('classroom', null, 'Assignments', 'Reading assignments with due dates.', 2),
  add('classroom', null, 'Engagement Insights', 'Instructors see who has started each reading.', 3),
];
const SUPPLEMENTAL = [
  add('supplemental', null, 'Lecture Slides', 'Slides for every chapter.', 0),
  add('supplemental', null, 'Practice Quizzes', 'Self-check quizzes with answers.', 1),
  add('supplemental', null, 'Video Walkthroughs', 'Short videos of worked examples.', 2),
];
const COLLECTION = [
  add(
    'collection',
    null,
    'One Subscription',
    'Every title in the collection with one purchase.',
    0,
  ),
  add('collection', null, 'Cross-title Search', 'Search all titles in the collection at once.', 1),
];
const COURSEWARE = [
  add('courseware', null, 'Adaptive Practice', 'Questions adjust to what you already know.', 0),
  add('courseware', null, 'Auto-graded Homework', 'Instant feedback on every attempt.', 1),
  add('courseware', null, 'Gradebook Sync', 'Scores flow into your course gradebook.', 2),
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
  out.push(A11Y.meetsStandards, level === 0 ? A11Y.wcagAA : A11Y.wcagA);
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
