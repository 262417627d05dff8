// What bench/rush-week.ts needs in the database before a burst, and what it reads afterwards:
// the books buyers buy (each with a file the reader opens), the books readers own, the pages
// visitors browse, accounts made in bulk, and the confirmation mails' lag.
import type pg from 'pg';
import { productPath } from '#domain/catalog/product-route.ts';
import { createBuyers, sellableOfferings } from '../../tests/resilience/harness.ts';

export type Catalog = {
  /** Digital offerings of books anyone may buy, each of its own product. */
  offerings: { offeringId: number; productId: number }[];
  /** EPUB books the readers own (the demo data's books with a reader file). */
  readerBooks: number[];
  /** Product pages visitors open (canonical paths, as the store links them). */
  productPaths: string[];
  /** Words visitors search for (from the catalog's titles). */
  searchTerms: string[];
};

/**
 * The demo catalog prepared for a rush: `offeringCount` digital books to sell, each given a
 * reader file (the demo data's first EPUB, the same stored file: a copy of its row) so a buyer
 * can open what they bought; the demo EPUBs for readers; product pages and search words.
 */
export async function prepareCatalog(client: pg.Client, offeringCount: number): Promise<Catalog> {
  const { digital } = await sellableOfferings(client, offeringCount, 0);
  const { rows: offerings } = await client.query<{ offering_id: number; product_id: number }>(
    'select id offering_id, product_id from offerings where id = any($1::int[]) order by id',
    [digital],
  );
  const { rows: epubs } = await client.query<{ id: number; product_id: number }>(
    `select f.id, f.product_id from book_files f join products p on p.id = f.product_id
      where f.type = 'READER' and f.extension = 'epub' and p.status = 'active'
      order by f.id`,
  );
  const model = epubs[0];
  if (!model) throw new Error('the demo data has no EPUB reader file (DEMO_DATA=on?)');
  await client.query(
    `insert into book_files (product_id, title, extension, type, media_type, storage_path, byte_size, sha256)
     select p.id, p.title, f.extension, 'READER', f.media_type, f.storage_path, f.byte_size, f.sha256
       from products p, book_files f
      where p.id = any($1::int[]) and f.id = $2
        and not exists (select 1 from book_files g where g.product_id = p.id and g.type = 'READER')`,
    [offerings.map((o) => o.product_id), model.id],
  );
  const { rows: pages } = await client.query<{
    id: number;
    product_type: string;
    slug: string;
    title: string;
  }>(
    `select id, product_type, slug, title from products
      where status = 'active' and not is_disabled and product_type = 'book'
        and coalesce(array_length(blocked_countries, 1), 0) = 0
        and coalesce(array_length(blocked_hosts, 1), 0) = 0
      order by id limit 40`,
  );
  const words = new Set<string>();
  for (const page of pages) {
    const word = page.title.split(/\s+/).find((w) => /^[A-Za-z]{5,}$/.test(w));
    if (word) words.add(word.toLowerCase());
  }
  return {
    offerings: offerings.map((o) => ({ offeringId: o.offering_id, productId: o.product_id })),
    readerBooks: [...new Set(epubs.map((e) => e.product_id))],
    productPaths: pages.map((p) =>
      productPath({ id: p.id, productType: p.product_type, slug: p.slug }),
    ),
    searchTerms: [...words].slice(0, 12),
  };
}

export type Account = { email: string; userId: number };

/**
 * Accounts made in one statement each (harness createBuyers: the demo password's hash reused,
 * terms accepted); readers are given one of `books` each, as a purchase a minute old.
 */
export async function makeAccounts(
  client: pg.Client,
  prefix: string,
  counts: { buyers: number; readers: number; loggedIn: number },
  books: readonly number[],
): Promise<{
  buyers: Account[];
  readers: (Account & { productId: number })[];
  loggedIn: Account[];
}> {
  const make = (kind: string, count: number) =>
    count > 0 ? createBuyers(client, `${prefix}-${kind}-`, count) : Promise.resolve([]);
  const buyers = await make('buyer', counts.buyers);
  const readers = (await make('reader', counts.readers)).map((account, i) => ({
    ...account,
    productId: books[i % books.length]!,
  }));
  const loggedIn = await make('browser', counts.loggedIn);
  if (readers.length > 0) {
    await client.query(
      `insert into ownerships (user_id, product_id, source, starts_at)
       select u, p, 'purchase', now() - interval '1 minute'
         from unnest($1::int[], $2::int[]) as t(u, p)`,
      [readers.map((r) => r.userId), readers.map((r) => r.productId)],
    );
  }
  return { buyers, readers, loggedIn };
}

/** Confirmation mails of these orders: sent and waiting, and each sent one's lag. */
export type MailReading = { total: number; unsent: number; lagsMs: number[] };

/**
 * From the order being paid (`orders.paid_at`) to its confirmation leaving the outbox
 * (`outbox.sent_at`): the lag of each mail sent, and how many are still waiting.
 */
export async function readMails(
  client: pg.Client,
  orderIds: readonly string[],
): Promise<MailReading> {
  const { rows } = await client.query<{ lag_ms: number | null; sent: boolean }>(
    `select extract(epoch from (ob.sent_at - coalesce(o.paid_at, ob.created_at))) * 1000 lag_ms,
            ob.sent_at is not null sent
       from orders o join outbox ob on ob.dedupe_key = 'order-confirmation:' || o.id
      where o.id = any($1::uuid[])`,
    [orderIds],
  );
  return {
    total: rows.length,
    unsent: rows.filter((r) => !r.sent).length,
    lagsMs: rows
      .filter((r) => r.sent)
      .map((r) => Number(r.lag_ms))
      .sort((a, b) => a - b),
  };
}

/** Waits until every confirmation of these orders is sent, or `ms` pass; the last reading. */
export async function drainMails(
  client: pg.Client,
  orderIds: readonly string[],
  ms: number,
): Promise<MailReading & { waitedMs: number }> {
  const started = performance.now();
  for (;;) {
    const reading = await readMails(client, orderIds);
    const waitedMs = performance.now() - started;
    if (reading.unsent === 0 || waitedMs >= ms) return { ...reading, waitedMs };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * The rush's own invariants on top of harness checkConsistency: one active ownership per
 * buyer and product, one successful payment per order, paid orders = charges = fulfilled
 * digital lines = confirmation mails, no stock below zero anywhere.
 */
export async function rushInvariants(
  client: pg.Client,
  buyerIds: readonly number[],
): Promise<{ violations: string[]; counts: Record<string, number> }> {
  const one = async (sql: string) =>
    Number((await client.query<{ n: number }>(sql, [buyerIds])).rows[0]?.n ?? 0);
  const counts = {
    'orders paid': await one(
      `select count(*)::int n from orders where user_id = any($1::int[]) and status in ('paid', 'fulfilled')`,
    ),
    'payments settled': await one(
      `select count(*)::int n from payments p join orders o on o.id = p.order_id
        where o.user_id = any($1::int[]) and p.status = 'succeeded'`,
    ),
    'charges at the gateway': await one(
      `select count(*)::int n from test_gateway_payments g join orders o on o.id = g.order_id
        where o.user_id = any($1::int[]) and g.status = 'succeeded'`,
    ),
    'ownerships from orders': await one(
      `select count(*)::int n from ownerships w join orders o on o.id = w.order_id
        where o.user_id = any($1::int[]) and w.revoked_at is null`,
    ),
    'confirmation mails': await one(
      `select count(*)::int n from outbox ob join orders o on ob.dedupe_key = 'order-confirmation:' || o.id
        where o.user_id = any($1::int[])`,
    ),
    'confirmation mails sent': await one(
      `select count(*)::int n from outbox ob join orders o on ob.dedupe_key = 'order-confirmation:' || o.id
        where o.user_id = any($1::int[]) and ob.sent_at is not null`,
    ),
    'doubled ownerships': await one(
      `select count(*)::int n from (select 1 from ownerships where user_id = any($1::int[])
        and revoked_at is null group by user_id, product_id having count(*) > 1) d`,
    ),
    'orders paid twice': await one(
      `select count(*)::int n from (select 1 from payments p join orders o on o.id = p.order_id
        where o.user_id = any($1::int[]) and p.status = 'succeeded' group by p.order_id having count(*) > 1) d`,
    ),
    'offerings below zero stock': await one(
      'select count(*)::int n from offerings where stock < 0 and $1::int[] is not null',
    ),
  };
  const violations: string[] = [];
  const paid = counts['orders paid'];
  for (const name of [
    'payments settled',
    'charges at the gateway',
    'ownerships from orders',
    'confirmation mails',
  ] as const) {
    if (counts[name] !== paid) violations.push(`orders paid ${paid} ≠ ${name} ${counts[name]}`);
  }
  for (const name of [
    'doubled ownerships',
    'orders paid twice',
    'offerings below zero stock',
  ] as const) {
    if (counts[name] > 0) violations.push(`${name}: ${counts[name]}`);
  }
  return { violations, counts };
}
