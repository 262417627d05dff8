import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StripeStandIn, startStripeStandIn } from '#tests/stripe-stand-in.ts';
import { DEMO_PASSWORD, expectAccessible, launchBrowser, waitForHydration } from './browser.ts';

// Decision 007, the browser side with Stripe configured: the checkout's Payment Element and
// the product page's Express Checkout Element, then our server reading the payment back.
// Stripe.js cannot be fetched here (no internet), so the browser is handed a stand-in at
// Stripe's script address that plays only the calls our code makes (elements, create, mount,
// on, submit, confirmPayment); what its confirmPayment "did" is applied to a local stand-in
// for Stripe's API, which the server under test is pointed at. This checks our glue — the
// order of calls, the arguments, the resume step, the pages — not Stripe.js itself.

const STRIPE_JS = 'https://js.stripe.com/v3/';

const FAKE_STRIPE_JS = `
window.Stripe = function (publishableKey, options) {
  return {
    elements: function (elementsOptions) {
      var elements = {
        submit: function () { return Promise.resolve({}); },
        create: function (type) {
          var handlers = {};
          return {
            on: function (event, handler) { handlers[event] = handler; return this; },
            destroy: function () {},
            mount: function (target) {
              if (type === 'payment') {
                target.innerHTML = '<p>Stand-in card fields (' + publishableKey + ', ' + options.locale + ')</p>';
              } else {
                var button = document.createElement('button');
                button.type = 'button';
                button.textContent = 'Google Pay ' + elementsOptions.amount;
                button.onclick = function () {
                  handlers.confirm({ expressPaymentType: 'google_pay', paymentFailed: function () {} });
                };
                target.append(button);
              }
              setTimeout(function () { handlers.ready && handlers.ready({ availablePaymentMethods: { googlePay: true } }); }, 0);
            },
          };
        },
      };
      elements.options = elementsOptions;
      return elements;
    },
    confirmPayment: function (confirm) {
      return window.__stripeConfirm({
        clientSecret: confirm.clientSecret || confirm.elements.options.clientSecret,
        passedClientSecret: Boolean(confirm.clientSecret),
        redirect: confirm.redirect,
        returnUrl: confirm.confirmParams.return_url,
      });
    },
  };
};
`;

type Confirmation = {
  clientSecret: string;
  passedClientSecret: boolean;
  redirect: string;
  returnUrl: string;
};

let stripe: StripeStandIn;
let server: ChildProcess;
let dataDir: string;
let baseUrl: string;
let browser: Browser;
/** What each confirmPayment in the browser does at "Stripe", in order; then success. */
const outcomes: ('declined' | 'succeeded')[] = [];
const confirmations: Confirmation[] = [];

beforeAll(async () => {
  stripe = await startStripeStandIn();
  const port = Number(process.env.E2E_STRIPE_PORT ?? Number(process.env.E2E_PORT ?? 3190) + 1);
  dataDir = mkdtempSync(path.join(tmpdir(), 'shelfmark-e2e-stripe-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DEMO_DATA: 'on',
    LOG_LEVEL: 'warn',
    STRIPE_SECRET_KEY: 'sk_test_51E2e0000000000000000000000000000',
    STRIPE_WEBHOOK_SECRET: 'whsec_e2e_5b7d9f1a3c5e7a9b1d3f5a7c9e1b3d5f',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_51E2e0000000000000000000000000000',
    STRIPE_API_BASE: stripe.base,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ACCESS_CODE_KEY: randomBytes(32).toString('hex'),
    LTI_KEY: randomBytes(32).toString('hex'),
  };
  delete env.DATABASE_URL;
  server = spawn(process.execPath, ['server.js'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 170_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    const up = await fetch(`${baseUrl}/api/account/login`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error('server did not start in time');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  await stripe?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function stripeContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl, locale: 'en-US' });
  await context.route(STRIPE_JS, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: FAKE_STRIPE_JS }),
  );
  await context.exposeFunction('__stripeConfirm', (confirmation: Confirmation) => {
    confirmations.push(confirmation);
    const ref = confirmation.clientSecret.replace(/_secret_standin$/, '');
    const outcome = outcomes.shift() ?? 'succeeded';
    stripe.confirmInBrowser(ref, outcome);
    return outcome === 'declined'
      ? { error: { type: 'card_error', code: 'card_declined', message: 'Declined.' } }
      : { paymentIntent: { id: ref, status: 'succeeded' } };
  });
  return context;
}

async function logIn(page: Page, email: string): Promise<void> {
  await page.goto('/accounts/login/');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/accounts/login'));
  await waitForHydration(page);
}

describe('paying through Stripe.js (decision 007)', () => {
  it('checkout: continue to payment, a decline says why, the return address reports it, then paid', async () => {
    const context = await stripeContext();
    const page = await context.newPage();
    await logIn(page, 'ta@demo.test');
    await page.goto('/book/24');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Add To Cart' }).click();
    await page.getByRole('link', { name: 'View Cart' }).click();
    await page.getByRole('link', { name: 'Checkout' }).click();
    await waitForHydration(page);
    const checkout = await page.request.get('/checkout/');
    expect(checkout.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(checkout.headers()['content-security-policy']).toContain('https://js.stripe.com');
    // No card fields of ours: Stripe's element takes the card.
    expect(await page.getByLabel('Card number').count()).toBe(0);
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.getByText('Stand-in card fields (pk_test_51E2e', { exact: false }).waitFor();
    await expectAccessible(page);
    outcomes.push('declined');
    await page.getByRole('button', { name: /^Pay \$/ }).click();
    await page.getByRole('alert').filter({ hasText: 'Your card was declined.' }).waitFor();
    const declined = confirmations.at(-1)!;
    // Elements made from the payment's secret: confirmPayment gets no second one.
    expect(declined).toMatchObject({ passedClientSecret: false, redirect: 'if_required' });
    const orderId = /\/checkout\/return\/([0-9a-f-]{36})$/.exec(declined.returnUrl)![1]!;
    // What Stripe would do after a bank's page: the return address reads the payment back.
    await page.goto(`/checkout/return/${orderId}?redirect_status=succeeded`);
    await page.waitForURL(/\/checkout\/\?payment_error=card_declined$/);
    await page.getByRole('alert').filter({ hasText: 'Your card was declined.' }).waitFor();
    await waitForHydration(page);
    // The same checkout key: the same order and payment, paid this time.
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.getByRole('button', { name: /^Pay \$/ }).click();
    await page.waitForURL(new RegExp(`/checkout/complete/${orderId}$`));
    await page.getByRole('heading', { name: 'Thank you for your order' }).waitFor();
    expect(confirmations.at(-1)!.returnUrl).toBe(declined.returnUrl);
    await context.close();
  });

  it('wallet: the Express Checkout Element pays for the offering, declined then paid, one order', async () => {
    const context = await stripeContext();
    const page = await context.newPage();
    await logIn(page, 'instructor@demo.test');
    await page.goto('/book/14');
    await waitForHydration(page);
    const created: string[] = [];
    page.on('response', async (response) => {
      if (response.url().endsWith('/api/payments') && response.status() === 201) {
        created.push(((await response.json()) as { data: { id: string } }).data.id);
      }
    });
    // The test wallet's button is gone; Stripe's wallet shows the order's amount.
    expect(await page.getByRole('button', { name: 'Buy with Wallet' }).count()).toBe(0);
    const wallet = page.getByRole('button', { name: /^Google Pay \d+$/ });
    outcomes.push('declined');
    await wallet.click();
    await page.getByRole('alert').filter({ hasText: 'Your card was declined.' }).waitFor();
    expect(confirmations.at(-1)).toMatchObject({
      passedClientSecret: true,
      redirect: 'if_required',
    });
    await wallet.click();
    const success = page.getByRole('dialog', {
      name: 'Your payment has been completed, trying to redirect to order page.',
    });
    await success.waitFor();
    await page.mouse.click(5, 5);
    expect(await success.isVisible()).toBe(true);
    await page.waitForURL(/\/checkout\/complete\/[0-9a-f-]{36}$/);
    // The retry after the decline paid the same order.
    expect(new Set(created).size).toBe(1);
    expect(page.url()).toContain(created[0]!);
    await context.close();
  });
});
