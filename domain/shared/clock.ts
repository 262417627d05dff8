/**
 * Reads the time. The request's `now` is when the request began; a write of money takes its
 * instant from one reading of the clock made when the gateway's word is in hand (decision 041),
 * which a request that waited for the pool may be seconds past. Tests give a clock they move.
 */
export type Clock = () => Date;

/** The machine's clock, read each time. */
export const systemClock: Clock = () => new Date();
