import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSender, pooledSmtpUrl, SEND_CONCURRENCY } from './outbox-worker.ts';

// With SMTP_URL set, the outbox hands each mail to a real SMTP server (issue 40 moved nodemailer
// from 7 to 10). This is a real one, on 127.0.0.1: the conversation, the envelope and the
// message as it arrives.
describe('the outbox over SMTP', () => {
  const received: { from: string; to: string[]; raw: string }[] = [];
  let server: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      closeTimeout: 200,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('delivers the message with its id, subject and recipient', async () => {
    const send = createSender({ smtpUrl: `smtp://127.0.0.1:${port}`, dataDir: '/nonexistent' });
    await send({
      messageId: '<outbox-42@shelfmark>',
      to: 'étudiante@example.test',
      subject: 'Votre commande est confirmée',
      text: 'Merci de votre achat.\nVotre livre est sur votre étagère.',
    });
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail!.from).toBe('no-reply@shelfmark.test');
    expect(mail!.to).toEqual(['étudiante@example.test']);
    expect(mail!.raw).toMatch(/^Message-ID: <outbox-42@shelfmark>$/m);
    expect(mail!.raw).toMatch(/^Subject: =\?UTF-8\?Q\?Votre_commande_est_confirm=C3=A9e\?=$/m);
    expect(mail!.raw).toContain('Votre livre est sur votre =C3=A9tag=C3=A8re.');
  });

  it('keeps a few connections open for many mails, not one handshake each', async () => {
    const before = received.length;
    let connections = 0;
    const counting = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      closeTimeout: 200,
      onConnect(_session, callback) {
        connections += 1;
        callback();
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => callback());
      },
    });
    await new Promise<void>((resolve) => counting.listen(0, '127.0.0.1', resolve));
    const countingPort = (counting.server.address() as AddressInfo).port;
    try {
      const send = createSender({ smtpUrl: `smtp://127.0.0.1:${countingPort}`, dataDir: '/x' });
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          send({
            messageId: `<outbox-${100 + i}@shelfmark>`,
            to: 'a@example.test',
            subject: 's',
            text: 't',
          }),
        ),
      );
      expect(connections).toBeGreaterThan(0);
      expect(connections).toBeLessThanOrEqual(SEND_CONCURRENCY);
    } finally {
      await new Promise<void>((resolve) => counting.close(() => resolve()));
    }
    expect(received.length).toBe(before);
  });

  it("says the pool in the URL, and leaves a URL's own choice alone", () => {
    expect(pooledSmtpUrl('smtp://relay.campus.test:587')).toBe(
      `smtp://relay.campus.test:587?pool=true&maxConnections=${SEND_CONCURRENCY}`,
    );
    expect(pooledSmtpUrl('smtps://u:p@relay.campus.test?pool=false')).toBe(
      `smtps://u:p@relay.campus.test?pool=false&maxConnections=${SEND_CONCURRENCY}`,
    );
  });

  it('fails, so the outbox tries again later, when the server refuses the recipient', async () => {
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      closeTimeout: 200,
      onRcptTo(_address, _session, callback) {
        callback(new Error('550 No such user here'));
      },
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const refusingPort = (refusing.server.address() as AddressInfo).port;
    try {
      const send = createSender({
        smtpUrl: `smtp://127.0.0.1:${refusingPort}`,
        dataDir: '/nonexistent',
      });
      await expect(
        send({
          messageId: '<outbox-43@shelfmark>',
          to: 'nobody@example.test',
          subject: 'x',
          text: 'y',
        }),
      ).rejects.toThrow(/No such user/);
    } finally {
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });
});
