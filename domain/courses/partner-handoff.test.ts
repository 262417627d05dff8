import { describe, expect, it } from 'vitest';
import { partnerHandoff, showPurchaseModal } from './partner-handoff.ts';

describe('the partner purchase modal (spec 1 §4 Partner hand-off; spec 2 §4)', () => {
  it('shows when candidates exist, the purchase-modal flag is on and the org is the retailer', () => {
    const on = { candidateCount: 2, purchaseModalEnabled: true, isRetailer: true };
    expect(showPurchaseModal(on)).toBe(true);
    expect(showPurchaseModal({ ...on, candidateCount: 0 })).toBe(false);
    expect(showPurchaseModal({ ...on, purchaseModalEnabled: false })).toBe(false);
    expect(showPurchaseModal({ ...on, isRetailer: false })).toBe(false);
  });
});

describe('the Follett-style look-up (spec 2 §7)', () => {
  const input = {
    storeUrl: 'https://store.example.edu/course-materials?campus=1',
    rsCourseId: 'RSC-1',
    rsCoursememberId: 'RSM-9',
    department: 'ENG',
    courseNumber: '101',
    sectionNumber: '001',
    isbns: ['9780000000001', '9780000000002', '9780000000001', ''],
  };

  it('answers the store URL and the form fields, each ISBN once', () => {
    expect(partnerHandoff(input)).toEqual({
      url: 'https://store.example.edu/course-materials?campus=1',
      body: {
        course_id: 'RSC-1',
        coursemember_id: 'RSM-9',
        department: 'ENG',
        course_number: '101',
        section_number: '001',
        isbns: '9780000000001,9780000000002',
      },
    });
  });

  it('has nothing to post to without an http(s) store URL', () => {
    expect(partnerHandoff({ ...input, storeUrl: null })).toBeNull();
    expect(partnerHandoff({ ...input, storeUrl: 'javascript:alert(1)' })).toBeNull();
    expect(partnerHandoff({ ...input, storeUrl: 'not a url' })).toBeNull();
  });
});
