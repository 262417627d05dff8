import { describe, expect, it } from 'vitest';
import { orderNumber } from './order-number.ts';

describe('order number (issue 19: the confirmation page and mail carry it)', () => {
  it('issue 19: the first twelve hex digits of the order id, in capitals, grouped by four', () => {
    expect(orderNumber('3f2a9c1b-7d40-4e2a-9b1c-0a1b2c3d4e5f')).toBe('3F2A-9C1B-7D40');
  });
});
