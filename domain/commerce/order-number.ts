// The order number a person reads (issue 19: the confirmation page and mail carry it): the
// order's id is a UUID, too long to read out to support; its first twelve hex digits, in
// capitals and groups of four, name it among the buyer's orders (2^48 values), and the
// order's page keeps the whole id in its address.

export function orderNumber(orderId: string): string {
  const hex = orderId.replace(/-/g, '').slice(0, 12).toUpperCase();
  return hex.match(/.{1,4}/g)?.join('-') ?? hex;
}
