import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Queryable } from '#db/client.ts';
import { accountLinkEmail, emailChangeNotice } from '#domain/notifications/account-email.ts';
import { optingConfirmationEmail } from '#domain/notifications/opting-email.ts';
import { orderConfirmationEmail } from '#domain/notifications/order-email.ts';
import { claimDue, markFailed, markSent } from '#domain/notifications/outbox.ts';
import type { Logger } from './logger.ts';

const FROM = 'Shelfmark <no-reply@shelfmark.test>';

export type Send = (message: {
  messageId: string;
  to: string;
  subject: string;
  text: string;
}) => Promise<void>;

/**
 * Real SMTP when SMTP_URL is set; otherwise each message is written as an RFC 5322 `.eml`
 * file in `<DATA_DIR>/outbox/`, named after its outbox id, so a resend replaces it.
 */
export function createSender(options: { smtpUrl?: string; dataDir: string }): Send {
  if (options.smtpUrl) {
    const smtp = nodemailer.createTransport(options.smtpUrl);
    return async (message) => {
      await smtp.sendMail({ from: FROM, ...message });
    };
  }
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const dir = path.resolve(options.dataDir, 'outbox');
  return async (message) => {
    const info = await builder.sendMail({ from: FROM, ...message });
    await mkdir(dir, { recursive: true });
    const name = `${message.messageId.replace(/[^\w.-]/g, '_')}.eml`;
    const temporary = path.join(dir, `.${name}.tmp`);
    await writeFile(temporary, info.message as Buffer);
    await rename(temporary, path.join(dir, name));
  };
}

/** Sends what is due once; returns how many messages were sent. */
export async function runOutboxOnce(
  db: Queryable,
  send: Send,
  options: { now: Date; publicOrigin: string; log?: Logger },
): Promise<number> {
  let sent = 0;
  for (const message of await claimDue(db, options.now)) {
    try {
      const email =
        message.kind === 'order-confirmation'
          ? await orderConfirmationEmail(db, String(message.payload.orderId), options.publicOrigin)
          : message.kind === 'opting-confirmation'
            ? await optingConfirmationEmail(
                db,
                Number(message.payload.optChangeId),
                options.publicOrigin,
              )
            : message.kind === 'account-link'
              ? await accountLinkEmail(
                  db,
                  { tokenId: Number(message.payload.tokenId), next: message.payload.next },
                  options.publicOrigin,
                  options.now,
                )
              : message.kind === 'email-change-notice'
                ? await emailChangeNotice(db, {
                    userId: Number(message.payload.userId),
                    oldEmail: message.payload.oldEmail,
                    newEmail: message.payload.newEmail,
                  })
                : null;
      if (email) {
        await send({ messageId: `<outbox-${message.id}@shelfmark>`, ...email });
        sent += 1;
      }
      await markSent(db, message.id, new Date());
    } catch (error) {
      options.log?.warn({ err: error, outboxId: message.id }, 'outbox send failed');
      await markFailed(db, message.id, String(error), new Date());
    }
  }
  return sent;
}

/** Polls the outbox every `intervalMs` in this process; several processes share the work. */
export function startOutboxWorker(options: {
  db: Queryable;
  send: Send;
  publicOrigin: string;
  log: Logger;
  intervalMs?: number;
}): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runOutboxOnce(options.db, options.send, {
      now: new Date(),
      publicOrigin: options.publicOrigin,
      log: options.log,
    })
      .catch((error) => options.log.warn({ err: error }, 'outbox worker failed'))
      .finally(() => {
        running = false;
      });
  }, options.intervalMs ?? 2_000);
  timer.unref();
  return () => clearInterval(timer);
}
