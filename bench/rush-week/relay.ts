// A real SMTP server on 127.0.0.1 for bench/rush-week.ts (`--smtp`, and every `--sustain` run):
// the store's outbox hands its mails to it over SMTP_URL, as to a campus relay, through
// nodemailer's pool (server/outbox-worker.ts). It keeps nothing but what the figures need: how
// many mails arrived, and any Message-ID that arrived twice (a mail sent twice).
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type Relay = {
  /** SMTP_URL for the store. */
  url: string;
  /** Mails received so far. */
  received(): number;
  /** Message-IDs received more than once. */
  duplicates(): string[];
  /** Most SMTP connections open at once. */
  mostConnections(): number;
  stop(): Promise<void>;
};

export async function startRelay(): Promise<Relay> {
  const seen = new Map<string, number>();
  let received = 0;
  let open = 0;
  let most = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 200,
    // Every pooled connection of every process may stay open.
    maxClients: 1000,
    onConnect(_session, callback) {
      open += 1;
      most = Math.max(most, open);
      callback();
    },
    onClose() {
      open -= 1;
    },
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        // The headers come first: the Message-ID is in the first few hundred bytes.
        if (head.length < 4096) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        received += 1;
        const id = /^Message-ID:\s*(\S+)/im.exec(head)?.[1] ?? `(none ${received})`;
        seen.set(id, (seen.get(id) ?? 0) + 1);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => received,
    duplicates: () => [...seen].filter(([, n]) => n > 1).map(([id]) => id),
    mostConnections: () => most,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
