import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chooseLanguage,
  expectAccessible,
  launchBrowser,
  logIn,
  newContext,
  waitForHydration,
} from './browser.ts';
import { makeUser } from './fixtures.ts';
import { waitForMail } from './mail.ts';

// Issue 39, refunds, walked as their people would: a student refunds a book within the Refund
// Policy from its order page and sees it leave the shelf with its reason and on the receipt (in
// French too); a student asks beyond the policy and the request goes to support with the
// policy's reason; support finds it in the queue and refunds the line, which needs a reason,
// and the order's history shows it. Another campus's bookstore manager finds no such order, and
// a student no help desk. The rules themselves are proved in tests/integration/refunds*.test.ts.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function payByCard(page: Page): Promise<void> {
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiration (MM/YY)').fill('12/30');
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}

describe('refunds (issue 39)', () => {
  it('issue 39: refunded at once within the policy, to support beyond it, refunded there with a reason', async () => {
    // A student buys a book and asks for its refund at once.
    const buyerContext = await newContext(browser);
    const page = await buyerContext.newPage();
    await logIn(page, await makeUser({ label: 'refunds-buyer' }));
    await page.goto('/book/24');
    await waitForHydration(page);
    const title = (await page.getByRole('heading', { level: 1 }).innerText()).trim();
    await page.getByRole('button', { name: 'Add To Cart' }).click();
    await page.getByRole('link', { name: 'View Cart' }).click();
    await page.getByRole('link', { name: 'Checkout' }).click();
    await waitForHydration(page);
    await payByCard(page);
    await page.waitForURL(/\/checkout\/complete\/[0-9a-f-]{36}$/);
    const orderId = page.url().split('/').at(-1)!;

    await page.goto(`/account/orders/${orderId}`);
    await waitForHydration(page);
    await page.getByRole('heading', { name: 'Refunds', level: 2 }).waitFor();
    await page.getByRole('link', { name: `Request a refund of ${title}` }).click();
    await page.getByRole('heading', { name: `Refund ${title}?` }).waitFor();
    await page
      .getByText(/will be refunded to your card at once, and your access to .* will end\.$/)
      .waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Confirm the refund request' }).click();
    await page.getByText(`${title} was refunded: `, { exact: false }).waitFor();
    await page.getByText('Status: Refunded').waitFor();
    await page.getByText('Net total').waitFor();
    expect(await page.getByRole('link', { name: `Request a refund of ${title}` }).count()).toBe(0);
    await page.getByText(/Refunded on /).waitFor();
    await expectAccessible(page);

    // The shelf says why the book left it.
    await page.goto('/shelf');
    await page.getByText(`${title} was refunded on `, { exact: false }).waitFor();
    await page.getByRole('link', { name: 'See the receipt' }).waitFor();

    // In French.
    await chooseLanguage(page, 'Français (Canada)', `/account/orders/${orderId}`);
    await page.getByRole('heading', { name: 'Remboursements', level: 2 }).waitFor();
    await page.getByText('Total net').waitFor();
    await page.getByText(/Remboursé le /).waitFor();
    await expectAccessible(page);

    // A student of Riverbend asks about an order of 20 days ago: it goes to support.
    const studentContext = await newContext(browser);
    const student = await studentContext.newPage();
    const riverbend = await makeUser({ like: 'student', label: 'refunds-student' });
    await logIn(student, riverbend);
    await student.goto('/account/orders');
    await student
      .getByRole('link', { name: /^Receipt of order / })
      .first()
      .click();
    await student.waitForURL(/\/account\/orders\/[0-9a-f-]{36}$/);
    const seededOrder = student.url().split('/').at(-1)!;
    await waitForHydration(student);
    const ask = student.getByRole('link', { name: /^Request a refund of / }).first();
    const asked = (await ask.getAttribute('aria-label'))!.replace('Request a refund of ', '');
    await ask.click();
    await student
      .getByText(
        'This is beyond the Refund Policy: It was bought more than 14 days ago. Your request will go to support, who will answer you.',
      )
      .waitFor();
    await student.getByRole('button', { name: 'Confirm the refund request' }).click();
    await student
      .getByText(
        `Your request for ${asked} went to support. It was bought more than 14 days ago. Support will answer you.`,
      )
      .waitFor();
    await student.getByText('Refund requested, waiting for support.').waitFor();
    // A student has no help desk.
    expect((await student.goto('/manage/refund-requests'))!.status()).toBe(403);

    // Support answers from the queue.
    const supportContext = await newContext(browser);
    const support = await supportContext.newPage();
    await logIn(support, await makeUser({ like: 'support', label: 'refunds-support' }));
    await support.goto('/manage/refund-requests');
    await support.getByRole('heading', { name: 'Refund requests', level: 1 }).waitFor();
    expect(await support.title()).toBe('Refund requests | Shelfmark');
    const row = support.getByRole('row').filter({ hasText: riverbend.email });
    await row.getByText('It was bought more than 14 days ago.').waitFor();
    await expectAccessible(support);
    await row.getByRole('link').click();
    await support.waitForURL(`**/manage/orders/${seededOrder}`);
    await waitForHydration(support);
    expect(await support.title()).toMatch(
      /^Order [0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4} \| Shelfmark$/,
    );
    // On a phone the order number stays on one line of the heading.
    const wide = support.viewportSize();
    await support.setViewportSize({ width: 320, height: 800 });
    const numberLines = await support
      .getByRole('heading', { level: 1, name: /^Order / })
      .evaluate((heading) => {
        const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (!/[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}/.test(node.textContent ?? '')) continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        }
        return 0;
      });
    expect(numberLines).toBe(1);
    if (wide) await support.setViewportSize(wide);
    const refund = support.getByRole('button', { name: `Refund ${asked}` });
    await refund.click();
    await support.getByText('Give a reason: this refund is beyond the Refund Policy.').waitFor();
    await expectAccessible(support);
    await support
      .getByRole('textbox', { name: 'Reason' })
      .first()
      .fill('Wrong edition for BIO 001');
    await support.getByRole('button', { name: `Refund ${asked}` }).click();
    await support.getByText(`${asked} was refunded (`, { exact: false }).waitFor();
    const history = support.getByRole('table', { name: 'Change history' });
    await history.getByText('Refunded — reason: Wrong edition for BIO 001').waitFor();
    // The payment stays paid at the gateway; the order page counts the line refunded from it.
    await support
      .getByRole('region', { name: 'Payments' })
      .getByText(/through the test gateway: (refunded in full|paid, \$[\d.,]+ refunded)/)
      .waitFor();
    await expectAccessible(support);

    // Another campus's bookstore manager: no such order, by its very URL.
    const lakeshoreContext = await newContext(browser);
    const lakeshore = await lakeshoreContext.newPage();
    await logIn(lakeshore, await makeUser({ like: 'lakeshore', label: 'refunds-lakeshore' }));
    expect((await lakeshore.goto(`/manage/orders/${seededOrder}`))!.status()).toBe(404);
    expect((await lakeshore.goto('/manage/orders/not-an-order'))!.status()).toBe(404);

    await Promise.all(
      [buyerContext, studentContext, supportContext, lakeshoreContext].map((c) => c.close()),
    );
  }, 120_000);

  it('issue 39: a declined request mails the buyer its reason; a refunded courseware line revokes its access code, and the order page says so', async () => {
    const buyer = await makeUser({ like: 'student', label: 'refunds-code' });
    const buyerContext = await newContext(browser);
    const supportContext = await newContext(browser);
    try {
      // The demo student's order: a PDF book, the courseware (its access code given) and a
      // classroom, 20 days ago. The buyer asks about the first line: it goes to support.
      const page = await buyerContext.newPage();
      await logIn(page, buyer);
      await page.goto('/account/orders');
      await page
        .getByRole('link', { name: /^Receipt of order / })
        .first()
        .click();
      await page.waitForURL(/\/account\/orders\/[0-9a-f-]{36}$/);
      const orderPath = new URL(page.url()).pathname;
      const orderId = orderPath.split('/').at(-1)!;
      await waitForHydration(page);
      const ask = page.getByRole('link', { name: /^Request a refund of / }).first();
      const asked = (await ask.getAttribute('aria-label'))!.replace('Request a refund of ', '');
      await ask.click();
      await page.getByRole('button', { name: 'Confirm the refund request' }).click();
      await page.getByText('Refund requested, waiting for support.').waitFor();

      // Support declines it with a reason, and refunds the other lines with one.
      const support = await supportContext.newPage();
      await logIn(support, await makeUser({ like: 'support', label: 'refunds-code-support' }));
      await support.goto(`/manage/orders/${orderId}`);
      await waitForHydration(support);
      const lineOf = (title: string) =>
        support.getByRole('listitem').filter({
          has: support.getByRole('heading', { level: 3, name: `${title} — `, exact: false }),
        });
      await lineOf(asked).getByRole('textbox', { name: 'Reason' }).fill('Used all term');
      await lineOf(asked).getByRole('button', { name: 'Decline the request' }).click();
      await support.getByText(`The request for ${asked} was declined.`).waitFor();
      const mail = await waitForMail(buyer.email, `Your refund request for ${asked} was declined`);
      expect(mail.text).toContain('Their reason: Used all term');
      expect(mail.text).toContain(
        'Why the Refund Policy sent it to support: It was bought more than 14 days ago.',
      );

      const others = (
        await support
          .getByRole('button', { name: /^Refund / })
          .evaluateAll((buttons) =>
            buttons.map((b) => b.getAttribute('aria-label')!.replace(/^Refund /, '')),
          )
      ).filter((title) => title !== asked);
      expect(others).toHaveLength(2);
      for (const title of others) {
        await lineOf(title).getByRole('textbox', { name: 'Reason' }).fill('Dropped the course');
        await lineOf(title)
          .getByRole('button', { name: `Refund ${title}` })
          .click();
        await support.getByText(`${title} was refunded (`, { exact: false }).waitFor();
        // The page has read the order again before the next line is refunded.
        await lineOf(title)
          .getByText(/^Refunded on /)
          .waitFor();
      }
      // The courseware's line: its code revoked, said on the help desk's order page.
      const revoked =
        /^Its access code ending in \S{4} was revoked with the refund: it no longer unlocks anything\.$/;
      expect(await support.getByText(revoked).count()).toBe(1);
      await expectAccessible(support);

      // The buyer's order page says it, in French too; the shelf says why the courseware left.
      await page.goto(orderPath);
      await waitForHydration(page);
      await page.getByText(revoked).waitFor();
      expect(await page.getByText(/Refunded on /).count()).toBe(2);
      await page.getByText('Support declined a refund: Used all term').waitFor();
      await expectAccessible(page);
      await chooseLanguage(page, 'Français (Canada)', orderPath);
      await page
        .getByText(
          /^Son code d'accès se terminant par \S{4} a été révoqué avec le remboursement : il ne débloque plus rien\.$/,
        )
        .waitFor();
    } finally {
      await Promise.all([buyerContext.close(), supportContext.close()]);
    }
  }, 120_000);
});
