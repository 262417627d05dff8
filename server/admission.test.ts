import { describe, expect, it } from 'vitest';
import { Admission, doorFor, type Lane, laneOf } from './admission.ts';

// Issue 40, "Buying never slows browsing" and "pay p99 ≤ 1.5 s at 200 buyers" (decision 044):
// a process works on at most `limit` requests; a waiting payment goes before pages, and pages
// before a log in, which still gets its turn.

/** A piece of work that ends when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('laneOf', () => {
  it('a checkout, its payment and its order-complete page are finishing', () => {
    expect(laneOf('GET', '/checkout/')).toBe('finishing');
    expect(laneOf('POST', '/checkout/')).toBe('finishing');
    expect(laneOf('POST', '/checkout.data')).toBe('finishing');
    expect(laneOf('GET', '/checkout/complete/8f1c2e0a-1111-4222-8333-944455556666')).toBe(
      'finishing',
    );
    expect(laneOf('POST', '/api/payments')).toBe('finishing');
    expect(laneOf('POST', '/api/payments/8f1c2e0a/confirm')).toBe('finishing');
  });

  it('a password checked (log in, sign up, a new password) is arriving; their forms are not', () => {
    expect(laneOf('POST', '/accounts/login/')).toBe('arriving');
    expect(laneOf('POST', '/accounts/login')).toBe('arriving');
    expect(laneOf('POST', '/accounts/login.data')).toBe('arriving');
    expect(laneOf('POST', '/accounts/signup/')).toBe('arriving');
    expect(laneOf('POST', '/accounts/password/reset/abc123/')).toBe('arriving');
    expect(laneOf('GET', '/accounts/login/')).toBe('browsing');
    expect(laneOf('GET', '/accounts/signup/')).toBe('browsing');
    expect(laneOf('POST', '/accounts/login/verify')).toBe('browsing');
  });

  it('everything else is browsing, a path that only begins like a checkout too', () => {
    expect(laneOf('GET', '/')).toBe('browsing');
    expect(laneOf('GET', '/product/intro-to-biology')).toBe('browsing');
    expect(laneOf('GET', '/shelf/')).toBe('browsing');
    expect(laneOf('POST', '/api/cart/items')).toBe('browsing');
    expect(laneOf('GET', '/checkouts-guide')).toBe('browsing');
    expect(laneOf('GET', '/api/paymentsx')).toBe('browsing');
  });
});

describe('Admission', () => {
  it('works on at most `limit` requests; the next starts when one ends', async () => {
    const admission = new Admission(2);
    const gates = [gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      admission.run(
        'browsing',
        undefined,
        async () => {
          started.push(i);
          await g.opened;
          return i;
        },
        () => -1,
      ),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(admission.active).toBe(2);
    expect(admission.waiting('browsing')).toBe(1);
    gates[1]!.open();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    expect(admission.active).toBe(2);
    gates[0]!.open();
    gates[2]!.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2]);
    expect(admission.active).toBe(0);
  });

  it('a checkout waiting goes before the pages waiting', async () => {
    const admission = new Admission(1);
    const first = gate();
    const order: string[] = [];
    const running = admission.run(
      'browsing',
      undefined,
      () => first.opened,
      () => undefined,
    );
    const queued = (['browsing', 'finishing', 'browsing'] as Lane[]).map((lane, n) =>
      admission.run(
        lane,
        undefined,
        async () => void order.push(`${lane} ${n}`),
        () => undefined,
      ),
    );
    await tick();
    expect(order).toEqual([]);
    first.open();
    await Promise.all([running, ...queued]);
    expect(order).toEqual(['finishing 1', 'browsing 0', 'browsing 2']);
  });

  it('a log in comes in at once, on a place of its own, while no page waits', async () => {
    const admission = new Admission(1, 2);
    const first = gate();
    const running = admission.run(
      'browsing',
      undefined,
      () => first.opened,
      () => undefined,
    );
    const logIns = [gate(), gate(), gate()];
    const started: number[] = [];
    const runs = logIns.map((g, n) =>
      admission.run(
        'arriving',
        undefined,
        async () => {
          started.push(n);
          await g.opened;
        },
        () => undefined,
      ),
    );
    await tick();
    // Two places at the door: the third waits for one of them, not for the page.
    expect(started).toEqual([0, 1]);
    expect(admission.active).toBe(3);
    expect(admission.waiting('arriving')).toBe(1);
    logIns[0]!.open();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    first.open();
    logIns[1]!.open();
    logIns[2]!.open();
    await Promise.all([running, ...runs]);
    expect(admission.active).toBe(0);
  });

  it('a log in waits while pages wait, for at most its share of them', async () => {
    const admission = new Admission(1, 1, 3);
    const first = gate();
    const order: string[] = [];
    const running = admission.run(
      'browsing',
      undefined,
      () => first.opened,
      () => undefined,
    );
    const pages = [1, 2, 3, 4, 5, 6, 7].map((n) =>
      admission.run(
        'browsing',
        undefined,
        async () => void order.push(`page ${n}`),
        () => 0,
      ),
    );
    const logIns = [1, 2].map((n) =>
      admission.run(
        'arriving',
        undefined,
        async () => void order.push(`log in ${n}`),
        () => 0,
      ),
    );
    await tick();
    expect(order).toEqual([]);
    first.open();
    await Promise.all([running, ...pages, ...logIns]);
    expect(order).toEqual([
      'page 1',
      'page 2',
      'page 3',
      'log in 1',
      'page 4',
      'page 5',
      'page 6',
      'log in 2',
      'page 7',
    ]);
  });

  it('the first at the door goes in once it has waited its patience, though pages wait', async () => {
    let clock = 0;
    const admission = new Admission(1, 1, 100, 8_000, () => clock);
    const first = gate();
    const order: string[] = [];
    const running = admission.run(
      'browsing',
      undefined,
      () => first.opened,
      () => undefined,
    );
    const second = gate();
    const page1 = admission.run(
      'browsing',
      undefined,
      async () => {
        order.push('page 1');
        await second.opened;
      },
      () => undefined,
    );
    const logIn = admission.run(
      'arriving',
      undefined,
      async () => void order.push('log in'),
      () => 0,
    );
    const page2 = admission.run(
      'browsing',
      undefined,
      async () => void order.push('page 2'),
      () => 0,
    );
    first.open();
    await tick();
    // Pages wait (page 2): the log in waits too, for now.
    expect(order).toEqual(['page 1']);
    clock = 8_000;
    second.open();
    await Promise.all([running, page1, logIn, page2]);
    expect(order).toEqual(['page 1', 'log in', 'page 2']);
  });

  it('a visitor gone while waiting is dropped: no work done, the place kept for the next', async () => {
    const admission = new Admission(1);
    const first = gate();
    const worked: string[] = [];
    const running = admission.run(
      'browsing',
      undefined,
      () => first.opened,
      () => undefined,
    );
    const leaving = new AbortController();
    const gone = admission.run(
      'browsing',
      leaving.signal,
      async () => void worked.push('gone'),
      () => 'dropped' as const,
    );
    const staying = admission.run(
      'browsing',
      undefined,
      async () => void worked.push('staying'),
      () => 'dropped' as const,
    );
    leaving.abort();
    expect(await gone).toBe('dropped');
    expect(admission.waiting('browsing')).toBe(1);
    first.open();
    await Promise.all([running, staying]);
    expect(worked).toEqual(['staying']);
    expect(admission.active).toBe(0);
  });

  it('a visitor already gone is never let in', async () => {
    const admission = new Admission(1);
    const gone = AbortSignal.abort();
    let worked = false;
    expect(
      await admission.run(
        'finishing',
        gone,
        async () => {
          worked = true;
        },
        () => 'dropped',
      ),
    ).toBe('dropped');
    expect(worked).toBe(false);
    expect(admission.active).toBe(0);
  });

  it('work that fails gives its place back', async () => {
    const admission = new Admission(1);
    await expect(
      admission.run(
        'browsing',
        undefined,
        () => Promise.reject(new Error('boom')),
        () => 0,
      ),
    ).rejects.toThrow('boom');
    expect(admission.active).toBe(0);
    expect(
      await admission.run(
        'browsing',
        undefined,
        async () => 7,
        () => 0,
      ),
    ).toBe(7);
  });

  it('refuses a limit that is not a whole number of at least 1', () => {
    expect(() => new Admission(0)).toThrow(RangeError);
    expect(() => new Admission(1.5)).toThrow(RangeError);
    expect(() => new Admission(4, 0)).toThrow(RangeError);
    expect(() => new Admission(4, 2, -1)).toThrow(RangeError);
  });
});

describe('doorFor', () => {
  it("shares the machine's cores among its web workers: 1 to 4 places each", () => {
    expect(doorFor(2, 1)).toBe(2);
    expect(doorFor(2, 2)).toBe(1);
    expect(doorFor(4, 4)).toBe(1);
    expect(doorFor(8, 2)).toBe(4);
    expect(doorFor(64, 1)).toBe(4);
    expect(doorFor(1, 4)).toBe(1);
    expect(doorFor(2, 0)).toBe(2);
  });
});
