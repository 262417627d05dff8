import { describe, expect, it } from 'vitest';
import { translate } from '#i18n/translate.ts';
import { accessBadgeOf } from './my-shelf.ts';

// spec 1 §2: tiles show the 'Free Access' badge; issue 38: what the course fee gave is not free.
describe('the badge of a material on the shelf', () => {
  it('a free book or a sample is Free Access', () => {
    expect(accessBadgeOf('free')).toBe('free');
    expect(accessBadgeOf('sample')).toBe('free');
    expect(translate('en', 'shelf.badge.free')).toBe('Free Access');
  });

  it('what the course fee or inclusive access gave says it comes with the course fee', () => {
    expect(accessBadgeOf('course_fee')).toBe('courseFee');
    expect(accessBadgeOf('inclusive_access')).toBe('courseFee');
    expect(translate('en', 'shelf.badge.courseFee')).toBe('Included in your course fee');
    expect(translate('fr-CA', 'shelf.badge.courseFee')).toBe('Inclus dans vos frais de cours');
  });

  it('bought, redeemed or given by staff: no badge', () => {
    for (const source of ['purchase', 'code', 'admin', 'feed']) {
      expect(accessBadgeOf(source)).toBeNull();
    }
  });
});
