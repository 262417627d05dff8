import { data } from 'react-router';
import { parseId } from '#domain/shared/id.ts';

/** An id in a billing page's path: a malformed one is not found, as an unknown one is. */
export function pathId(raw: string): number {
  const id = parseId(raw);
  if (id === null) throw data(null, { status: 404 });
  return id;
}
