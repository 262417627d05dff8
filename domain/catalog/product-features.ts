import type { Wording } from '#domain/shared/wording.ts';

// Product features (spec 1 §3 Product feature: category, subcategory, name, detail, url) are
// shown on the 'eBook Features' tab and the classroom, supplemental, collection and courseware
// sections (spec 1 §2). The features of the store's own reader and platform have a code: the
// store describes them in the page's language (messages `feature.<code>.name` and
// `feature.<code>.detail`). A feature without a known code is its source's text, shown as given
// in the product's language (issue 13).
export const STORE_FEATURES = [
  // eBook features: what the reader does.
  'read-aloud',
  'search',
  'highlights',
  'offline',
  'flashcards',
  'citations',
  'printing',
  // Classroom features.
  'section-discussions',
  'shared-annotations',
  'assignments',
  'engagement-insights',
  // Supplemental features of a classroom.
  'lecture-slides',
  'practice-quizzes',
  'video-walkthroughs',
  // Collection features.
  'one-subscription',
  'cross-title-search',
  // Courseware features.
  'adaptive-practice',
  'auto-graded-homework',
  'gradebook-sync',
] as const;
export type StoreFeature = (typeof STORE_FEATURES)[number];

export function isStoreFeature(code: string | null): code is StoreFeature {
  return code !== null && (STORE_FEATURES as readonly string[]).includes(code);
}

/**
 * What the store's own reader does today (issue 19: product pages promise only what this book
 * can do in our reader; web/reading/): search the book, and print within the
 * publisher's allowance. Read aloud, highlights and notes, offline reading, flashcards and
 * citation tools are not in it, so no page shows them, whatever a product's rows say.
 */
export const READER_FEATURES_TODAY: readonly StoreFeature[] = ['search', 'printing'];

const READER_FEATURES: readonly StoreFeature[] = [
  'read-aloud',
  'search',
  'highlights',
  'offline',
  'flashcards',
  'citations',
  'printing',
];

/**
 * The features a page may show: all but the reader features our reader does not have. A
 * source's own feature (no store code) and the other store features pass as they are.
 */
export function promisedFeatures<T extends { code: string | null }>(features: readonly T[]): T[] {
  return features.filter(
    (feature) =>
      !isStoreFeature(feature.code) ||
      !READER_FEATURES.includes(feature.code) ||
      READER_FEATURES_TODAY.includes(feature.code),
  );
}

/** A feature row as the product page and the catalog item API carry it. */
export type ProductFeature = { code: string | null; name: string; detail: string | null };

export type FeatureWording = { name: Wording; detail: Wording | null };

/** What a feature row shows: the store's words for a store feature, else the row's text. */
export function featureWording(feature: ProductFeature): FeatureWording {
  if (isStoreFeature(feature.code)) {
    return {
      name: { message: `feature.${feature.code}.name` },
      detail: { message: `feature.${feature.code}.detail` },
    };
  }
  return {
    name: { text: feature.name },
    detail: feature.detail ? { text: feature.detail } : null,
  };
}
