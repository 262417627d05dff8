import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Queryable } from '#db/client.ts';
import {
  LINE_REFUND_REFUSED_MAIL,
  lineRefundEmail,
  lineRefundRefusedEmail,
} from '#domain/commerce/refunds-email.ts';
import { LINE_REFUND_MAIL } from '#domain/commerce/refunds-settle.ts';
import {
  accountLinkEmail,
  emailChangeNotice,
  securityNoticeEmail,
  signUpExistingEmail,
} from '#domain/notifications/account-email.ts';
import { renderingFor } from '#domain/notifications/mail-locale.ts';
import { optingConfirmationEmail } from '#domain/notifications/opting-email.ts';
import { orderConfirmationEmail, paymentRefundEmail } from '#domain/notifications/order-email.ts';
import {
  claimDue,
  markFailed,
  markSent,
  releaseClaimed,
  SIGN_UP_EXISTING_KIND,
} from '#domain/notifications/outbox.ts';
import { privacyLinkEmail } from '#domain/notifications/privacy-email.ts';
import {
  SECTION_PLACE_KIND,
  sectionPlaceEmail,
} from '#domain/notifications/section-place-email.ts';
import { mailOrigin } from '#domain/shared/mail-host.ts';
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
    const smtp = nodemailer.createTransport(pooledSmtpUrl(options.smtpUrl));
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

/**
 * Mails of one batch in flight at once (issue 40): a relay answers each message in tens of
 * milliseconds, so one at a time was at most a few a second per process.
 */
export const SEND_CONCURRENCY = 4;

/**
 * The SMTP URL with nodemailer's connection pool on, as many connections as mails in flight,
 * unless the URL says otherwise (`?pool=false`, `?maxConnections=…`): one connection per
 * message was a TCP and SMTP handshake per mail.
 */
export function pooledSmtpUrl(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  if (!url.searchParams.has('maxConnections'))
    url.searchParams.set('maxConnections', String(SEND_CONCURRENCY));
  return url.href;
}

type Outgoing = Awaited<ReturnType<typeof claimDue>>[number];

/** The mail of one outbox row, by its kind (null: a kind this version does not send). */
function render(db: Queryable, message: Outgoing, options: { now: Date; publicOrigin: string }) {
  const { payload } = message;
  switch (message.kind) {
    case 'order-confirmation':
      return orderConfirmationEmail(db, String(payload.orderId), options.publicOrigin);
    case 'payment-refund':
      return paymentRefundEmail(
        db,
        {
          orderId: String(payload.orderId),
          ref: String(payload.ref),
          gateway: String(payload.gateway),
          reason: payload.reason,
          duplicateOf: payload.duplicateOf,
        },
        options.publicOrigin,
      );
    case LINE_REFUND_MAIL:
      return lineRefundEmail(db, payload.refundId, options.publicOrigin);
    case LINE_REFUND_REFUSED_MAIL:
      return lineRefundRefusedEmail(db, payload.refundId, options.publicOrigin);
    case 'opting-confirmation':
      return optingConfirmationEmail(db, Number(payload.optChangeId), options.publicOrigin);
    case 'privacy-export':
    case 'privacy-delete':
      return privacyLinkEmail(db, payload, options.publicOrigin);
    case 'account-link':
      return accountLinkEmail(
        db,
        { tokenId: Number(payload.tokenId), next: payload.next },
        options.publicOrigin,
        options.now,
      );
    case SECTION_PLACE_KIND:
      return sectionPlaceEmail(
        db,
        { placeId: payload.placeId, locale: payload.locale },
        options.publicOrigin,
      );
    case SIGN_UP_EXISTING_KIND:
      return signUpExistingEmail(db, { userId: Number(payload.userId) }, options.publicOrigin);
    case 'email-change-notice':
      return emailChangeNotice(db, {
        userId: Number(payload.userId),
        oldEmail: payload.oldEmail,
        newEmail: payload.newEmail,
      });
    case 'security-notice':
      return securityNoticeEmail(
        db,
        {
          userId: Number(payload.userId),
          event: payload.event,
          at: payload.at,
          detail: payload.detail,
        },
        options.publicOrigin,
      );
    default:
      return null;
  }
}

/** Messages claimed at a time. */
const BATCH_SIZE = 16;

/**
 * Sends what is due once (one batch): how many were claimed, and how many sent, up to
 * SEND_CONCURRENCY at a time. Once `stopping()` says so (the process is shutting down, issue
 * 40), the mails being sent are finished and the rest of the batch is given back for another
 * worker to send at once.
 */
export async function runOutboxOnce(
  db: Queryable,
  send: Send,
  options: { now: Date; publicOrigin: string; log?: Logger; stopping?: () => boolean },
): Promise<{ claimed: number; sent: number }> {
  let sent = 0;
  const due = await claimDue(db, options.now, BATCH_SIZE);
  let next = 0;
  const sendOne = async (message: Outgoing) => {
    try {
      // Its links lead to the site it was queued from (issue 37, mail-host.ts).
      // In the language it was asked for when its reader has none of their own (mail-locale.ts).
      const email = await renderingFor(message.payload.askedIn, () =>
        render(db, message, {
          ...options,
          publicOrigin: mailOrigin(message.siteHost, options.publicOrigin),
        }),
      );
      if (email) {
        await send({ messageId: `<outbox-${message.id}@shelfmark>`, ...email });
        sent += 1;
      }
      await markSent(db, message.id, new Date());
    } catch (error) {
      options.log?.warn({ err: error, outboxId: message.id }, 'outbox send failed');
      await markFailed(db, message.id, String(error), new Date());
    }
  };
  const lane = async () => {
    while (next < due.length && !options.stopping?.()) {
      const message = due[next]!;
      next += 1;
      await sendOne(message);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SEND_CONCURRENCY, due.length) }, lane));
  if (next < due.length) {
    await releaseClaimed(
      db,
      due.slice(next).map((left) => left.id),
      new Date(),
    );
  }
  return { claimed: due.length, sent };
}

/** The most one poll sends before the next: a burst drains at once, not 10 per poll. */
const MAX_PER_POLL = 500;

/**
 * Polls the outbox every `intervalMs` in this process and sends what is due, batch after
 * batch while batches come back full (issue 37: a rush's 200 order mails used to leave at 5 a
 * second); account mails leave first (outbox.ts, priorityOf). Several processes share the work.
 * The returned stop claims nothing more, lets the mail being sent finish, gives back the rest
 * of its batch, and resolves once the worker is idle (graceful shutdown, issue 40).
 */
export function startOutboxWorker(options: {
  db: Queryable;
  send: Send;
  publicOrigin: string;
  log: Logger;
  intervalMs?: number;
}): () => Promise<void> {
  let stopping = false;
  let running: Promise<void> | null = null;
  const drain = async () => {
    let handled = 0;
    while (!stopping) {
      const batch = await runOutboxOnce(options.db, options.send, {
        now: new Date(),
        publicOrigin: options.publicOrigin,
        log: options.log,
        stopping: () => stopping,
      });
      handled += batch.claimed;
      if (batch.claimed < BATCH_SIZE || handled >= MAX_PER_POLL) return;
    }
  };
  const timer = setInterval(() => {
    if (running || stopping) return;
    running = drain()
      .catch((error) => options.log.warn({ err: error }, 'outbox worker failed'))
      .finally(() => {
        running = null;
      });
  }, options.intervalMs ?? 1_000);
  timer.unref();
  return async () => {
    stopping = true;
    clearInterval(timer);
    await running;
  };
}
