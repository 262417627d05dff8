// Orders move pending → paid → fulfilled; a pending order may be canceled; a paid or
// fulfilled one may be refunded (issue 4). Every move is recorded (order_transitions), and
// the service refuses any move this table does not allow.
import { ORDER_STATUSES } from '#db/schema/commerce.ts';

export { ORDER_STATUSES };
export type OrderStatus = (typeof ORDER_STATUSES)[number];

const NEXT: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ['paid', 'canceled'],
  paid: ['fulfilled', 'refunded'],
  fulfilled: ['refunded'],
  canceled: [],
  refunded: [],
};

export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT[from].includes(to);
}

/** Whether nothing can happen to the order any more. */
export function isFinal(status: OrderStatus): boolean {
  return NEXT[status].length === 0;
}
