import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseUrl,
  expectAccessible,
  launchBrowser,
  logIn,
  newContext,
  waitForHydration,
} from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 20, Orders and receipts, and Privacy self-service, tried as a student would: buy,
// find the order on My Account with the card's last four digits, open its receipt, download
// it as a PDF, read it in French; ask for one's data and get it through the mailed link; delete
// the account through the mailed link, after which the old password no longer signs in.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * The newest mail to `to` whose body has a link to `pathPrefix` on this server, waited for.
 * The server writes each mail as an .eml file in `<DATA_DIR>/outbox/`, DATA_DIR being a
 * `shelfmark-e2e-*` directory of the system's temporary directory (server-setup.ts); other
 * journeys' servers may run beside ours, so the recipient and our server's port pick ours.
 */
async function mailedLink(to: string, pathPrefix: string): Promise<string> {
  const origin = new URL(baseUrl());
  const pattern = new RegExp(`https?://[^\\s/]+:${origin.port}(${pathPrefix}[A-Za-z0-9_-]+)`);
  for (let attempt = 0; attempt < 60; attempt += 1) {
    for (const dir of readdirSync(tmpdir()).filter((name) => name.startsWith('shelfmark-e2e-'))) {
      const outbox = path.join(tmpdir(), dir, 'outbox');
      if (!existsSync(outbox)) continue;
      for (const file of readdirSync(outbox).filter((name) => name.endsWith('.eml'))) {
        const eml = readFileSync(path.join(outbox, file), 'utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_, hex: string) =>
            String.fromCharCode(Number.parseInt(hex, 16)),
          );
        if (!eml.includes(`To: ${to}`)) continue;
        const found = pattern.exec(eml);
        if (found) return found[1]!;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`no mail to ${to} with a link to ${pathPrefix}`);
}

async function payByCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiration (MM/YY)').fill('12/30');
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}

function pdfText(file: string): string {
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

describe('orders and receipts on My Account (issue 20)', () => {
  let context: BrowserContext;
  afterAll(async () => {
    await context?.close();
  });

  it('issue 20: a buyer finds the order with its last four digits, its receipt and the PDF; in French too', async () => {
    context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ label: 'orders-receipts' }));
    await page.goto('/book/24');
    await waitForHydration(page);
    const title = (await page.getByRole('heading', { level: 1 }).innerText()).trim();
    await page.getByRole('button', { name: 'Add To Cart' }).click();
    await page.getByRole('link', { name: 'View Cart' }).click();
    await page.getByRole('link', { name: 'Checkout' }).click();
    await waitForHydration(page);
    await payByCard(page, '4242 4242 4242 4242');
    await page.waitForURL(/\/checkout\/complete\/[0-9a-f-]{36}$/);
    const orderId = page.url().split('/').at(-1)!;
    // The order-complete page leads to the receipt too.
    await page.getByRole('link', { name: 'View your receipt' }).waitFor();
    // Issue 38: the tax said, never silence; no fee line when no fee applies.
    await page.getByText('No sales tax charged').waitFor();
    expect(await page.getByText('Platform fee').count()).toBe(0);
    const number = orderId.replace(/-/g, '').slice(0, 12).toUpperCase().match(/.{4}/g)!.join('-');

    // My Account → Orders.
    await page.goto('/account');
    await page.getByRole('link', { name: 'Orders and receipts' }).click();
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    const order = page.getByRole('listitem').filter({
      has: page.getByRole('heading', { name: `Order number: ${number}` }),
    });
    await order.getByText('Paid with Visa ending in 4242').waitFor();
    await order.getByText('Status: Paid').waitFor();
    await order
      .getByRole('cell', { name: new RegExp(title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) })
      .waitFor();
    await expectAccessible(page);

    // Its receipt, by keyboard.
    const receiptLink = order.getByRole('link', { name: `Receipt of order ${number}` });
    await receiptLink.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Receipt for order ${number}`, level: 1 }).waitFor();
    await page.getByText('Paid with Visa ending in 4242').waitFor();
    await page.getByRole('heading', { name: 'Store' }).waitFor();
    await page.getByRole('heading', { name: 'Organization' }).waitFor();
    await page.getByText('Northfield State University').waitFor();
    await expectAccessible(page);

    // The PDF: a real PDF with the order number in it.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`receipt-${number}.pdf`);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'receipt-e2e-')), 'receipt.pdf');
    await download.saveAs(file);
    expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(file);
    expect(text).toContain(`Receipt for order ${number}`);
    expect(text).toContain('Paid with Visa ending in 4242');
    expect(text).toContain('No sales tax charged');

    // In French.
    await context.addCookies([{ name: 'LANG', value: 'fr-CA', url: baseUrl() }]);
    await page.goto('/account/orders');
    await page.getByRole('heading', { name: 'Commandes', level: 1 }).waitFor();
    await page.getByText('Payé avec Visa se terminant par 4242').first().waitFor();
    await expectAccessible(page);
    await page.goto(`/account/orders/${orderId}`);
    await page.getByRole('heading', { name: `Reçu de la commande ${number}` }).waitFor();
    await page.getByRole('link', { name: 'Télécharger le PDF' }).waitFor();
    // Issue 38: a US amount names its currency in Canadian French.
    await page.getByText('Aucune taxe de vente facturée').waitFor();
    await page
      .getByText(/\d,\d\d\u00a0\$\u00a0US/)
      .first()
      .waitFor();
    await expectAccessible(page);
    const french = await context.request.get(`/account/orders/${orderId}/receipt.pdf`);
    expect(french.headers()['content-type']).toBe('application/pdf');
    const frenchFile = path.join(path.dirname(file), 'recu.pdf');
    writeFileSync(frenchFile, await french.body());
    expect(pdfText(frenchFile)).toContain(`Reçu de la commande ${number}`);
  });

  it('issue 20: another user’s order and a malformed id are the 404 page, never the order', async () => {
    const owner = await newContext(browser);
    const ownerPage = await owner.newPage();
    await logIn(ownerPage, await makeUser({ like: 'student', label: 'orders-owner' }));
    await ownerPage.goto('/account/orders');
    const href = await ownerPage
      .getByRole('link', { name: /^Receipt of order/ })
      .first()
      .getAttribute('href');
    await owner.close();

    const stranger = await newContext(browser);
    const page = await stranger.newPage();
    await logIn(page, await makeUser({ label: 'orders-stranger' }));
    for (const target of [href!, `${href}/receipt.pdf`, '/account/orders/not-an-id']) {
      const response = await page.goto(target);
      expect(response?.status()).toBe(404);
      await page
        .getByRole('heading', { level: 1, name: "Sorry, that page doesn't exist." })
        .waitFor();
    }
    await page.goto('/account/orders');
    await page.getByText('You have not bought anything yet.').waitFor();
    await stranger.close();
  });
});

describe('privacy self-service (issue 20)', () => {
  it('issue 20: download my data by the mailed link; delete the account by the mailed link; the old password fails', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const user = await makeUser({ like: 'student', label: 'privacy-journey' });
    await logIn(page, user);
    await page.goto('/account');
    await page.getByRole('link', { name: 'Privacy: download my data, delete my account' }).click();
    await page.getByRole('heading', { name: 'Privacy', level: 1 }).waitFor();
    await expectAccessible(page);

    // Download my data.
    await page.getByRole('button', { name: 'E-mail me a download link' }).click();
    await page.getByText(`We sent a download link to ${user.email}.`).waitFor();
    const exportLink = await mailedLink(user.email, '/account/privacy/export/');
    const file = await context.request.get(exportLink);
    expect(file.status()).toBe(200);
    expect(file.headers()['content-disposition']).toMatch(/^attachment; filename="shelfmark-data-/);
    const data = await file.json();
    expect(data.account.email).toBe(user.email);
    expect(data.orders.length).toBeGreaterThan(0);
    expect(data.orders[0].payments[0].cardLast4).toBe('4242');
    // Used once.
    expect((await context.request.get(exportLink)).status()).toBe(409);

    // Delete my account: the wrong password first.
    await page.goto('/account/privacy');
    await waitForHydration(page);
    await page.getByLabel('Current password').fill('not my password');
    await page.getByRole('button', { name: 'E-mail me a confirmation link' }).click();
    await page.getByText('The password is not correct.').waitFor();
    await expectAccessible(page);
    await page.getByLabel('Current password').fill(user.password);
    await page.getByRole('button', { name: 'E-mail me a confirmation link' }).click();
    await page.getByText(`We sent a confirmation link to ${user.email}.`).waitFor();
    const deleteLink = await mailedLink(user.email, '/account/privacy/delete/');
    await page.goto(deleteLink);
    await page.getByRole('heading', { name: 'Delete your account?' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Delete my account permanently' }).click();
    await page.getByRole('heading', { name: 'Your account has been deleted' }).waitFor();
    await expectAccessible(page);

    // Signed out, and the old password no longer signs in.
    await page.goto('/account');
    await page.waitForURL(/\/accounts\/login\/\?next=/);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('The e-mail or password is not correct.').waitFor();
    await context.close();
  });
});
