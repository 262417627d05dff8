import { useMemo } from 'react';

/**
 * A route's data carried as one JSON string instead of a tree of values. React Router encodes
 * loader data value by value (turbo-stream) and the browser decodes every value before the
 * page hydrates: for a search page of 91 results (51 kB of data, about 900 values) that decoding
 * was most of hydration's first task on a phone (issue 13, Lighthouse's blocking time). A page
 * that keeps the server's markup of a list (<ServerMarkup>) never needs the list's data to
 * hydrate; it reads it (`useUnpack`) only when the list renders in the browser.
 *
 * Only plain data (strings, numbers, booleans, null, arrays and objects of them) survives.
 */
export type Packed<T> = string & { readonly packedOf?: T };

export function pack<T>(value: T): Packed<T> {
  return JSON.stringify(value) as Packed<T>;
}

export function unpack<T>(packed: Packed<T>): T {
  return JSON.parse(packed) as T;
}

/** A reader of the packed value: it is unpacked at the first call, then kept while `packed` is the same. */
export function useUnpack<T>(packed: Packed<T>): () => T {
  return useMemo(() => {
    let value: { unpacked: T } | null = null;
    return () => {
      value ??= { unpacked: unpack(packed) };
      return value.unpacked;
    };
  }, [packed]);
}
