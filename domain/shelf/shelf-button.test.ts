import { describe, expect, it } from 'vitest';
import { isBeforeDeadline } from '#domain/courses/opting.ts';
import { translate } from '#i18n/translate.ts';
import {
  offeringsAfterAddDrop,
  ownedAction,
  type ShelfAction,
  type ShelfMaterial,
  shelfButton,
} from './shelf-button.ts';

const base: ShelfMaterial = {
  productType: 'book',
  owned: false,
  free: false,
  hasOfferings: true,
  inCart: false,
  physical: false,
  courseFee: false,
  throughCourse: false,
};

describe('shelf button priority (spec 1 §4)', () => {
  it('1. owned reads or accesses, by type', () => {
    expect(shelfButton({ ...base, owned: true })).toBe('read');
    expect(shelfButton({ ...base, owned: true, productType: 'ebundle' })).toBe('read');
    expect(shelfButton({ ...base, owned: true, productType: 'courseware' })).toBe(
      'accessCourseware',
    );
    expect(shelfButton({ ...base, owned: true, productType: 'classroom' })).toBe('accessClassroom');
    expect(shelfButton({ ...base, owned: true, free: true, inCart: true })).toBe('read');
    // issue 14: an owned collection opens its page, not a reader that has no such book.
    expect(shelfButton({ ...base, owned: true, productType: 'collection' })).toBe('openCollection');
  });

  it('issue 14: courtesy access and instructors open the material as owners do', () => {
    expect(shelfButton({ ...base, throughCourse: true, hasOfferings: false })).toBe('read');
    expect(shelfButton({ ...base, throughCourse: true, productType: 'courseware' })).toBe(
      'accessCourseware',
    );
    expect(shelfButton({ ...base, throughCourse: true, productType: 'classroom' })).toBe(
      'accessClassroom',
    );
    // A print copy is bought, whatever the course gives.
    expect(shelfButton({ ...base, throughCourse: true, physical: true })).toBe('addToCart');
    // A free book is still added to the shelf first.
    expect(shelfButton({ ...base, throughCourse: true, free: true })).toBe('addToShelf');
  });

  it('2. free adds to the shelf, before any cart', () => {
    expect(shelfButton({ ...base, free: true, inCart: true })).toBe('addToShelf');
  });

  it('4. in the cart gives View Cart; 5. offerings give Add To Cart; 6. otherwise hidden', () => {
    expect(shelfButton({ ...base, inCart: true })).toBe('viewCart');
    expect(shelfButton(base)).toBe('addToCart');
    expect(shelfButton({ ...base, hasOfferings: false })).toBeNull();
    // 3. An opted-out student who may buy is shown the offerings, so the same rules apply;
    // with nothing on sale there is nothing to add, and what is in the cart says View Cart.
    expect(shelfButton({ ...base, hasOfferings: false, inCart: true })).toBe('viewCart');
  });

  it('an owned material opens by its type; a type with nothing to open shows no button', () => {
    expect(ownedAction('collection')).toBe('openCollection');
    expect(ownedAction('ebundle')).toBe('read');
    expect(ownedAction('physical')).toBeNull();
  });

  it('course fee: digital Start Reading, courseware Acquire Code, physical through the cart', () => {
    expect(shelfButton({ ...base, courseFee: true })).toBe('startReading');
    expect(shelfButton({ ...base, courseFee: true, productType: 'courseware' })).toBe(
      'acquireCode',
    );
    expect(shelfButton({ ...base, courseFee: true, physical: true })).toBe('addToCart');
    expect(shelfButton({ ...base, courseFee: true, physical: true, inCart: true })).toBe(
      'viewCart',
    );
  });

  it('labels are the spec 2 §9 texts, as the page shows them (message shelf.button.{action})', () => {
    const spec: Record<ShelfAction, string> = {
      read: 'Read Now',
      accessCourseware: 'Access Courseware',
      accessClassroom: 'Access Classroom',
      addToShelf: 'Add To My Shelf',
      addToCart: 'Add To Cart',
      viewCart: 'View Cart',
      startReading: 'Start Reading',
      acquireCode: 'Acquire Code',
      // Not a spec label: the spec gives owned collections none (issue 14).
      openCollection: 'Open Collection',
    };
    for (const [action, label] of Object.entries(spec)) {
      expect(translate('en', `shelf.button.${action}`)).toBe(label);
    }
  });
});

describe('course fee after add/drop (spec 1 §4)', () => {
  const offerings = [{ type: 'digital' }, { type: 'physical' }];
  const addDropDate = new Date('2026-09-10T04:00:00Z');
  it('a physical/digital choice drops its physical offerings after the add/drop date', () => {
    const after = new Date('2026-09-11T00:00:00Z');
    expect(
      offeringsAfterAddDrop(offerings, { choice: true, courseFee: true, addDropDate, now: after }),
    ).toEqual([{ type: 'digital' }]);
    const before = new Date('2026-09-01T00:00:00Z');
    expect(
      offeringsAfterAddDrop(offerings, { choice: true, courseFee: true, addDropDate, now: before }),
    ).toHaveLength(2);
    expect(
      offeringsAfterAddDrop(offerings, { choice: false, courseFee: true, addDropDate, now: after }),
    ).toHaveLength(2);
  });

  it('issue 13: at the add/drop instant itself the deadline has passed, as for opting', () => {
    const offerings = [{ type: 'digital' }, { type: 'physical' }];
    const addDropDate = new Date('2026-09-10T04:00:00Z');
    expect(
      offeringsAfterAddDrop(offerings, {
        choice: true,
        courseFee: true,
        addDropDate,
        now: addDropDate,
      }),
    ).toEqual([{ type: 'digital' }]);
    expect(isBeforeDeadline(addDropDate, addDropDate)).toBe(false);
  });
});
