// Whether the database answers (issue 13, "Survives its database going away"). While it does
// not, requests are answered 503 with Retry-After at once instead of each waiting for a
// connection (stored anonymous pages are still served at the edge); a probe every half second
// notices its return, so the store recovers by itself within a second or two of it.

const PROBE_TIMEOUT_MS = 2_000;
const PROBE_EVERY_MS = 500;

export class DatabaseHealth {
  #down = false;
  #probe: Promise<boolean> | null = null;
  #probedAt = 0;

  constructor(
    private readonly ping: (timeoutMs: number) => Promise<void>,
    private readonly onChange: (up: boolean) => void = () => {},
  ) {}

  /** A connection error was reported: requests wait for a probe before they use the pool. */
  markDown(): void {
    this.#set(false);
  }

  /** True unless the database is known to be away and a fresh probe says it still is. */
  async isUp(): Promise<boolean> {
    if (!this.#down) return true;
    if (!this.#probe && Date.now() - this.#probedAt < PROBE_EVERY_MS) return false;
    return this.check();
  }

  /** Asks the database now (one probe at a time, shared by every caller). */
  check(): Promise<boolean> {
    this.#probe ??= this.ping(PROBE_TIMEOUT_MS)
      .then(
        () => true,
        () => false,
      )
      .then((up) => {
        this.#probedAt = Date.now();
        this.#probe = null;
        this.#set(up);
        return up;
      });
    return this.#probe;
  }

  #set(up: boolean): void {
    if (this.#down === !up) return;
    this.#down = !up;
    this.onChange(up);
  }
}
