// Who takes part in bench/rush-week.ts: a buyer's journey, a reader's, and the visitors who
// browse throughout (tests/resilience/harness.ts's Buyer and send, over plain HTTP).
import {
  type Buyer,
  type CheckoutResult,
  type Recorder,
  send,
  sleep,
} from '../../tests/resilience/harness.ts';
import type { Catalog } from './fixture.ts';

/**
 * Every product page and search once, two at a time (with several workers, each gets some),
 * before anything is timed: the figures compare a warm store idle with a warm store busy, not
 * the first renders.
 */
export async function warmUp(
  base: string,
  catalog: Catalog,
  recorder: Recorder,
  timeoutMs: number,
): Promise<void> {
  const paths = [
    ...catalog.productPaths,
    ...catalog.searchTerms.map((term) => `/search?terms=${encodeURIComponent(term)}`),
  ];
  await Promise.all(
    [0, 1].map(async (lane) => {
      for (let i = lane; i < paths.length * 2; i += 2) {
        await send(recorder, `${base}${paths[i % paths.length]}`, { label: 'warm-up', timeoutMs });
      }
    }),
  );
}

/** Anonymous visitors (product pages and searches) and logged-in ones (product pages). */
export function startBrowsing(
  base: string,
  catalog: Catalog,
  loggedIn: Buyer[],
  recorder: Recorder,
  options: { anonymous: number; pauseMs: number; timeoutMs: number },
) {
  let running = true;
  const pause = () => sleep(options.pauseMs * (0.5 + Math.random()));
  const anonymous = Array.from({ length: options.anonymous }, async (_, visitor) => {
    for (let i = visitor; running; i += 1) {
      const path = catalog.productPaths[i % catalog.productPaths.length]!;
      await send(recorder, `${base}${path}`, {
        label: 'product page (anonymous)',
        timeoutMs: options.timeoutMs,
      });
      await pause();
      if (i % 4 === 0 && catalog.searchTerms.length > 0) {
        const term = catalog.searchTerms[i % catalog.searchTerms.length]!;
        await send(recorder, `${base}/search?terms=${encodeURIComponent(term)}`, {
          label: 'search (anonymous)',
          timeoutMs: options.timeoutMs,
        });
        await pause();
      }
    }
  });
  const known = loggedIn.map(async (visitor, n) => {
    for (let i = n * 7; running; i += 1) {
      await visitor.visit(
        catalog.productPaths[i % catalog.productPaths.length]!,
        'product page (logged in)',
      );
      await pause();
    }
  });
  return async () => {
    running = false;
    await Promise.all([...anonymous, ...known]);
  };
}

export type Journey = { ok: boolean; startedAt: number; endedAt: number; failure: string | null };

export async function buyerJourney(
  buyer: Buyer,
  recorder: Recorder,
  productId: number,
  offeringId: number,
) {
  const startedAt = recorder.now();
  const end = (
    failure: string | null,
    result?: CheckoutResult,
  ): Journey & { result?: CheckoutResult } => ({
    ok: failure === null,
    startedAt,
    endedAt: recorder.now(),
    failure,
    result,
  });
  if (!(await buyer.logIn())) return end('not logged in');
  // A patient buyer: presses again after a 503 or no answer, for up to a minute.
  const giveUpAt = recorder.now() + 60_000;
  const result = await buyer.checkout(
    { offeringIds: [offeringId], needsAddress: false },
    () => giveUpAt,
    () => 500,
  );
  if (!result.orderId) return end(result.failure ?? 'no order', result);
  if (!(await buyer.orderComplete(result.orderId))) return end('order-complete page', result);
  if (!(await buyer.openReader(productId, 'reader (bought book)'))) return end('reader', result);
  return end(null, result);
}

export async function readerJourney(
  reader: Buyer,
  recorder: Recorder,
  productId: number,
): Promise<Journey> {
  const startedAt = recorder.now();
  const end = (failure: string | null): Journey => ({
    ok: failure === null,
    startedAt,
    endedAt: recorder.now(),
    failure,
  });
  if (!(await reader.logIn())) return end('not logged in');
  if (!(await reader.openShelf())) return end('shelf');
  if (!(await reader.openReader(productId))) return end('reader');
  if (!(await reader.readerPart(productId, 1))) return end('book part');
  return end(null);
}
