import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';

// GET /metrics for a machine of several workers (issue 40, decision 042). The balancer's (or
// Prometheus's) connection lands on whichever worker the primary hands it to; that worker
// checks who is asking (server/metrics.ts), then asks the primary over the cluster's IPC
// channel, and the primary asks every worker for its registry (prom-client's
// AggregatorRegistry) and answers with their sum. One address, one text per machine, whatever
// worker took the scrape; the primary itself serves no HTTP.

/** Set by our primary in each worker's environment: its slot, 1…WEB_CONCURRENCY. */
export const WORKER_ENV = 'SHELFMARK_WORKER';

const ASK = 'shelfmark:metrics-ask';
const ANSWER = 'shelfmark:metrics-answer';
/** prom-client gives the workers 5 s to answer the primary; the asking worker waits past that. */
const ANSWER_TIMEOUT_MS = 8_000;

type Ask = { type: typeof ASK; id: number };
type Answer = { type: typeof ANSWER; id: number; text?: string; error?: string };

/** This process is a worker of our own primary (not of another cluster manager's). */
export function isClusterWorker(): boolean {
  return cluster.isWorker && process.env[WORKER_ENV] !== undefined && Boolean(process.send);
}

let answering = false;

/**
 * Worker: answers the primary's requests for this process's metrics. prom-client adds that
 * listener when an AggregatorRegistry is made (not when it is loaded), so one is made here, as
 * soon as the server's code is loaded: the primary asks every connected worker, and one that
 * is still migrating or seeding must answer too, or every scrape would wait 5 s and fail.
 */
export function answerPrimaryScrapes(): void {
  if (answering || !isClusterWorker()) return;
  answering = true;
  new AggregatorRegistry();
}

let nextId = 0;

/** Worker: the machine's metrics, every worker's summed, as the primary answers them. */
export function machineMetrics(): Promise<string> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      const answer = message as Partial<Answer> | null;
      if (answer?.type !== ANSWER || answer.id !== id) return;
      done();
      if (typeof answer.text === 'string') resolve(answer.text);
      else reject(new Error(`the primary could not sum the workers' metrics: ${answer.error}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error('the primary did not answer for the metrics in time'));
    }, ANSWER_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      process.off('message', onMessage);
    };
    process.on('message', onMessage);
    const ask: Ask = { type: ASK, id };
    process.send!(ask, undefined, undefined, (error: Error | null) => {
      if (!error) return;
      done();
      reject(error);
    });
  });
}

/** Primary: answers each worker that asks for the machine's metrics. */
export function serveMachineMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker: Worker, message: unknown) => {
    const ask = message as Partial<Ask> | null;
    if (ask?.type !== ASK || typeof ask.id !== 'number') return;
    const id = ask.id;
    // A worker gone meanwhile (killed, restarting) is not answered; the callback keeps a
    // closed channel from becoming an error event in the primary.
    const reply = (answer: Answer) => {
      if (worker.isConnected()) worker.send(answer, () => undefined);
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ type: ANSWER, id, text }),
      (error: unknown) => reply({ type: ANSWER, id, error: String(error) }),
    );
  });
}
