import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { offerings } from '#db/schema/catalog.ts';
import { outbox } from '#db/schema/events.ts';
import { queueSecurityNotice } from '#domain/accounts/security-notice.ts';
import { createUser, loadSessionUser } from '#domain/accounts/service.ts';
import { putInCart } from '#domain/commerce/cart.ts';
import { placeOrder, recordSuccessfulPayment } from '#domain/commerce/orders.ts';
import { securityNoticeEmail } from '#domain/notifications/account-email.ts';
import { renderingFor, withAskingLocale } from '#domain/notifications/mail-locale.ts';
import { claimDue, enqueue, LEASE_MS } from '#domain/notifications/outbox.ts';
import { mailOrigin, withMailHost } from '#domain/shared/mail-host.ts';
import { createSender, runOutboxOnce, SEND_CONCURRENCY } from '#server/outbox-worker.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, unique } from '#tests/database.ts';

// Issue 4: the order confirmation leaves through the outbox, once, even across a crash.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function paidOrder(title: string): Promise<string> {
  const userId = await createUser(database.db, {
    email: `${unique('mail')}@example.test`,
    password: 'pw-123456',
    firstName: 'Mia',
    lastName: 'M',
  });
  const user = (await loadSessionUser(database.db, { userId, impersonatorId: null }))!;
  const ctx = testContext(database.db, { user });
  const productId = await insertProduct(ctx.db, { title }, { priceCents: 3100 });
  const [offer] = await ctx.db
    .select({ id: offerings.id })
    .from(offerings)
    .where(eq(offerings.productId, productId));
  await putInCart(ctx, { userId }, { offeringId: offer!.id });
  const { orderId } = await placeOrder(ctx, { idempotencyKey: unique('checkout') });
  for (let i = 0; i < 3; i += 1) {
    await recordSuccessfulPayment(ctx.db, {
      orderId,
      gateway: 'test',
      gatewayRef: `pi_${orderId}`,
      amountCents: 3100,
      now: new Date(),
    });
  }
  return orderId;
}

const filesMentioning = (dir: string, text: string) =>
  readdirSync(dir).filter((name) => readFileSync(path.join(dir, name), 'utf8').includes(text));

describe('order confirmation e-mail', () => {
  it('a payment confirmed three times queues one e-mail, written once as an .eml file', async () => {
    const title = unique('Mailed Title');
    const orderId = await paidOrder(title);
    const queued = await database.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupeKey, `order-confirmation:${orderId}`));
    expect(queued).toHaveLength(1);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'outbox-'));
    const send = createSender({ dataDir });
    const options = { now: new Date(), publicOrigin: 'http://127.0.0.1:3000' };
    // On the shared CI database other test files queue mail too: drain until ours is sent (a
    // batch is 10), then run once more, which must not send it again.
    const sentAt = async () =>
      (
        await database.db
          .select({ sentAt: outbox.sentAt })
          .from(outbox)
          .where(eq(outbox.dedupeKey, `order-confirmation:${orderId}`))
      )[0]?.sentAt ?? null;
    for (let i = 0; i < 100 && (await sentAt()) === null; i += 1) {
      await runOutboxOnce(database.db, send, options);
    }
    await runOutboxOnce(database.db, send, options);
    const files = filesMentioning(path.join(dataDir, 'outbox'), title);
    expect(files).toHaveLength(1);
    // The body is quoted-printable: undo soft line breaks and escapes to read it.
    const eml = readFileSync(path.join(dataDir, 'outbox', files[0]!), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      );
    expect(eml).toContain('Subject: Your Shelfmark order');
    expect(eml).toContain('Hello Mia,');
    expect(eml).toContain('$31.00');
    expect(eml).toContain(`/account/orders/${orderId}`);
  });

  it('a worker that dies after claiming: the message is sent once its lease runs out', async () => {
    const title = unique('Leased Title');
    await paidOrder(title);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'outbox-'));
    const send = createSender({ dataDir });
    const now = new Date();
    // The first worker claims everything due and "crashes" before sending.
    await claimDue(database.db, now, 1_000);
    await runOutboxOnce(database.db, send, { now, publicOrigin: 'http://x' });
    expect(readdirSync(dataDir)).toEqual([]);
    const later = new Date(now.getTime() + LEASE_MS + 1_000);
    await runOutboxOnce(database.db, send, { now: later, publicOrigin: 'http://x' });
    await runOutboxOnce(database.db, send, { now: later, publicOrigin: 'http://x' });
    expect(filesMentioning(path.join(dataDir, 'outbox'), title)).toHaveLength(1);
  });

  it('issue 40: a stopping worker finishes the mail it is on and gives back the rest of its batch', async () => {
    for (let i = 0; i < 3; i += 1) {
      await enqueue(database.db, {
        kind: 'not-sent-by-this-version',
        dedupeKey: unique('stopping'),
        payload: {},
        to: { userId: null },
      });
    }
    // A second ahead: PostgreSQL's now() has microseconds, a Date only milliseconds.
    const now = new Date(Date.now() + 1_000);
    const due = await database.db
      .select({ id: outbox.id, attempts: outbox.attempts })
      .from(outbox)
      .where(and(isNull(outbox.sentAt), lte(outbox.availableAt, now)));
    const attemptsBefore = new Map(due.map((row) => [row.id, row.attempts]));
    let asked = 0;
    // The shutdown comes while the first message is being sent.
    const run = await runOutboxOnce(database.db, async () => {}, {
      now,
      publicOrigin: 'http://x',
      stopping: () => asked++ >= 1,
    });
    expect(run.claimed).toBeGreaterThanOrEqual(3);
    const after = await database.db
      .select({ id: outbox.id, attempts: outbox.attempts, availableAt: outbox.availableAt })
      .from(outbox)
      .where(inArray(outbox.id, [...attemptsBefore.keys()]));
    const tried = after.filter((row) => row.attempts !== attemptsBefore.get(row.id));
    expect(tried).toHaveLength(1);
    // The others are due again at once, for another worker, the claim not counted.
    const givenBack = after.filter((row) => row.attempts === attemptsBefore.get(row.id));
    expect(givenBack.every((row) => row.availableAt.getTime() <= Date.now())).toBe(true);
  });

  // On PGlite only: each file has its database there, while on a shared PostgreSQL server
  // this worker, whose relay keeps nothing, would take other files' due mail.
  it.skipIf(Boolean(process.env.DATABASE_URL))(
    'issue 40: a batch is sent several mails at a time, never more than SEND_CONCURRENCY',
    async () => {
      const userId = await createUser(database.db, {
        email: `${unique('lanes')}@example.test`,
        password: 'pw-123456',
        firstName: 'Lane',
        lastName: 'L',
      });
      for (let i = 0; i < 12; i += 1) {
        await database.db.transaction((tx) =>
          queueSecurityNotice(tx, {
            userId,
            event: 'password-changed',
            now: new Date(Date.now() + i),
          }),
        );
      }
      let inFlight = 0;
      let most = 0;
      const slowRelay = async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 40));
        inFlight -= 1;
      };
      const ours = () =>
        database.db
          .select({ sentAt: outbox.sentAt })
          .from(outbox)
          .where(
            and(
              eq(outbox.kind, 'security-notice'),
              eq(sql`(${outbox.payload}->>'userId')::int`, userId),
            ),
          );
      for (let round = 0; round < 5; round += 1) {
        const rows = await ours();
        if (rows.every((row) => row.sentAt !== null)) break;
        await runOutboxOnce(database.db, slowRelay, {
          now: new Date(Date.now() + 1_000),
          publicOrigin: 'http://x',
        });
      }
      const rows = await ours();
      expect(rows).toHaveLength(12);
      expect(rows.every((row) => row.sentAt !== null)).toBe(true);
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(SEND_CONCURRENCY);
    },
  );

  // Issue 37: a reset link queued after a rush's order mails still leaves first.
  it('account mails are claimed before order mails queued earlier', async () => {
    const batch = unique('rush');
    await database.db.transaction(async (tx) => {
      for (let i = 0; i < 30; i += 1) {
        await enqueue(tx, {
          kind: 'order-confirmation',
          dedupeKey: `${batch}:order:${i}`,
          payload: { orderId: '00000000-0000-0000-0000-000000000000' },
          to: { userId: null },
        });
      }
      await enqueue(tx, {
        kind: 'account-link',
        dedupeKey: `${batch}:reset`,
        payload: { tokenId: 0 },
        to: { userId: null },
      });
    });
    const claimed = await claimDue(database.db, new Date(Date.now() + 1_000), 10_000);
    const keys = await database.db
      .select({ id: outbox.id, dedupeKey: outbox.dedupeKey })
      .from(outbox)
      .where(
        inArray(
          outbox.id,
          claimed.map((message) => message.id),
        ),
      );
    const keyOf = new Map(keys.map((row) => [row.id, row.dedupeKey]));
    const ours = claimed
      .map((message) => keyOf.get(message.id))
      .filter((key) => key?.startsWith(batch));
    // What this test leased goes back to the queue for the other files on this database.
    await database.db
      .update(outbox)
      .set({ availableAt: new Date() })
      .where(
        inArray(
          outbox.id,
          claimed.map((message) => message.id),
        ),
      );
    expect(ours).toHaveLength(31);
    expect(ours[0]).toBe(`${batch}:reset`);
  });

  // Issue 37: mail links always use the site's public origin, a white label's own host.
  it('a mail queued on a white-label site links to that site; one queued elsewhere, to PUBLIC_ORIGIN', async () => {
    const userId = await createUser(database.db, {
      email: `${unique('label')}@example.test`,
      password: 'a-long-password-1',
      firstName: 'Wren',
      lastName: 'L',
    });
    await withMailHost('books.campus.test', () =>
      database.db.transaction((tx) =>
        queueSecurityNotice(tx, { userId, event: 'password-changed', now: new Date() }),
      ),
    );
    await database.db.transaction((tx) =>
      queueSecurityNotice(tx, { userId, event: 'totp-on', now: new Date() }),
    );
    // The queued messages keep the host they were asked on (none for the second)...
    const queued = await database.db
      .select({ payload: outbox.payload, siteHost: outbox.siteHost })
      .from(outbox)
      .where(
        and(
          eq(outbox.kind, 'security-notice'),
          eq(sql`(${outbox.payload}->>'userId')::int`, userId),
        ),
      );
    expect(queued.map((row) => row.siteHost).sort()).toEqual(['books.campus.test', null]);
    // ...and each is written, as the worker writes it (mailOrigin), with links there. Read
    // from the queue rather than run the worker, which another test's worker may race for.
    const texts: string[] = [];
    for (const { payload, siteHost } of queued) {
      const mail = await securityNoticeEmail(
        database.db,
        { userId: Number(payload.userId), event: payload.event, at: payload.at },
        mailOrigin(siteHost, 'https://store.example.edu'),
      );
      texts.push(mail!.text);
    }
    expect(texts).toHaveLength(2);
    const changed = texts.find((text) => text.includes('was changed'))!;
    const totp = texts.find((text) => text.includes('Two-step verification was turned on'))!;
    expect(changed).toContain('https://books.campus.test/accounts/password/forgot/');
    expect(totp).toContain('https://store.example.edu/accounts/password/forgot/');
  });

  // Issue 37's walk: a French visitor whose account has no language of its own got English mail.
  it('a mail is written in its reader’s language, else in the language of the page that asked for it', async () => {
    const withoutLanguage = await createUser(database.db, {
      email: `${unique('nolang')}@example.test`,
      password: 'a-long-password-1',
      firstName: 'Odile',
      lastName: 'L',
    });
    const english = await createUser(database.db, {
      email: `${unique('en')}@example.test`,
      password: 'a-long-password-1',
      firstName: 'Edith',
      lastName: 'L',
    });
    await database.db.update(users).set({ languageCode: 'en' }).where(eq(users.id, english));
    for (const userId of [withoutLanguage, english]) {
      await withAskingLocale('fr-CA', () =>
        database.db.transaction((tx) =>
          queueSecurityNotice(tx, { userId, event: 'password-changed', now: new Date() }),
        ),
      );
    }
    // The queued messages keep the language of the page that asked for them...
    const queued = await database.db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(
        and(
          eq(outbox.kind, 'security-notice'),
          inArray(sql`(${outbox.payload}->>'userId')::int`, [withoutLanguage, english]),
        ),
      );
    expect(queued.map((row) => row.payload.askedIn)).toEqual(['fr-CA', 'fr-CA']);
    // ...and each is written, as the worker renders it, in its reader's language first.
    const subjects: Record<string, string> = {};
    for (const { payload } of queued) {
      const mail = await renderingFor(payload.askedIn, () =>
        securityNoticeEmail(
          database.db,
          { userId: Number(payload.userId), event: payload.event, at: payload.at },
          'https://store.example.edu',
        ),
      );
      subjects[mail!.text.includes('Odile,') ? 'Odile' : 'Edith'] = mail!.subject;
    }
    expect(subjects).toEqual({
      Odile: 'Votre mot de passe a été changé',
      Edith: 'Your password was changed',
    });
  });
});
