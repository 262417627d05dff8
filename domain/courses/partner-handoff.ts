// The custom bookstore-partner organisation's Buy Now (spec 1 §4 Partner hand-off; spec 2 §4,
// §7 Follett-style handoff): a purchase modal, then a hidden form posted to the partner
// store with the course and the materials to buy.
import { partnerStoreUrl } from '#domain/sites/partner-store.ts';

/**
 * The purchase modal shows when candidate materials exist, the purchase-modal flag is on and
 * the organisation is the retailer (spec 1 §4, spec 2 §4).
 */
export function showPurchaseModal(input: {
  candidateCount: number;
  purchaseModalEnabled: boolean;
  isRetailer: boolean;
}): boolean {
  return input.candidateCount > 0 && input.purchaseModalEnabled && input.isRetailer;
}

export type PartnerHandoff = { url: string; body: Record<string, string> };

/** At most this many ISBNs go in one hand-off (a section lists a handful). */
const MAX_ISBNS = 100;

/**
 * The look-up's answer (spec 2 §7): the store URL and the form fields the browser posts to
 * it. Null when the organisation has no usable store URL.
 */
export function partnerHandoff(input: {
  storeUrl: string | null;
  rsCourseId: string;
  rsCoursememberId: string;
  department: string;
  courseNumber: string;
  sectionNumber: string | null;
  isbns: readonly string[];
}): PartnerHandoff | null {
  const url = partnerStoreUrl(input.storeUrl);
  if (!url) return null;
  const isbns = [...new Set(input.isbns.filter((isbn) => isbn !== ''))].slice(0, MAX_ISBNS);
  return {
    url: url.href,
    body: {
      course_id: input.rsCourseId,
      coursemember_id: input.rsCoursememberId,
      department: input.department,
      course_number: input.courseNumber,
      section_number: input.sectionNumber ?? '',
      isbns: isbns.join(','),
    },
  };
}
