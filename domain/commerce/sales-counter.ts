import type { OrderStatus } from './order-status.ts';

// Best Sellers (issue 13; DESIGN.md, Data): products.sales_count counts the units of paid
// orders. An order counts from the moment it is paid until it is refunded; pending and
// canceled orders never did (cancel moves only a pending order).
const SOLD: ReadonlySet<OrderStatus> = new Set(['paid', 'fulfilled']);

/** What a move of an order adds to the sales count of each of its items: 1, -1 or 0. */
export function salesDelta(from: OrderStatus, to: OrderStatus): -1 | 0 | 1 {
  return ((SOLD.has(to) ? 1 : 0) - (SOLD.has(from) ? 1 : 0)) as -1 | 0 | 1;
}
