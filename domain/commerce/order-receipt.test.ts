import { describe, expect, it } from 'vitest';
import { orderNextSteps } from './order-receipt.ts';

describe('what an order says happens next (issue 19)', () => {
  it('issue 19: digital items are on the shelf', () => {
    expect(orderNextSteps(['digital'])).toEqual({ onShelf: true, printed: false, posted: false });
  });
  it('issue 19: a print-only order is not on the shelf; it is printed (spec 2 §9: 7 - 10 business days)', () => {
    expect(orderNextSteps(['print'])).toEqual({ onShelf: false, printed: true, posted: false });
  });
  it('issue 19: a physical-only order is posted, not on the shelf', () => {
    expect(orderNextSteps(['physical', 'physical_product'])).toEqual({
      onShelf: false,
      printed: false,
      posted: true,
    });
  });
  it('issue 19: a combo is on the shelf and posted', () => {
    expect(orderNextSteps(['combo'])).toEqual({ onShelf: true, printed: false, posted: true });
  });
});
