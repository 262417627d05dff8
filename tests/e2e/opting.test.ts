import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, logIn, newContext, waitForHydration } from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 6, Opting, tried as a student like student@demo.test would on BIO 101 (opted in,
// deadline open): every step of opting out — the wrong word, 'Other' without text — the
// banner and the reading access changing, a failed call's error modal, and opting back in.
// Each test's student is its own (fixtures.ts), so what it changes touches no other journey.

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const OPTED_IN =
  /^You are currently opted in\. You have \d+ day\(s\) to opt out of inclusive access for this course\.$/;
const OPTED_OUT =
  /^You are currently opted out\. You have \d+ day\(s\) to opt in and gain access to all your materials\.$/;

async function openBio(page: Page): Promise<void> {
  await page.goto('/shelf');
  await page.locator('.course-card__link', { hasText: 'BIO 101' }).click();
  await page.waitForURL(/\/shelf\/course-section\/\d+$/);
  await page.getByRole('heading', { name: /^BIO 101: Section 001$/, level: 1 }).waitFor();
  await waitForHydration(page);
}

const banner = (page: Page) => page.getByRole('region', { name: 'Inclusive access' });

describe('opting out of a course section and back in', () => {
  it('goes through every step, loses and regains inclusive-access reading', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'student', label: 'opting' }));
    await openBio(page);

    // The banner: opted in, days left, the deadline as YYYY-MM-DD, Learn More and Opt Out.
    await banner(page).getByText(OPTED_IN).waitFor();
    await banner(page)
      .getByText(/^Opting deadline: \d{4}-\d{2}-\d{2}$/)
      .waitFor();
    await banner(page).locator('summary', { hasText: 'Learn More' }).waitFor();
    // The inclusive-access book is the section's first material, read through the program.
    const readNow = page.getByRole('link', { name: /^Read Now: / }).first();
    const label = (await readNow.getAttribute('aria-label')) ?? '';
    const title = label.replace(/^Read Now: /, '');
    expect(title).not.toBe('');
    await expectAccessible(page);

    // Details: Stay Opted In closes and gives the focus back.
    const optOut = banner(page).getByRole('button', { name: 'Opt Out' });
    await optOut.click();
    let dialog = page.getByRole('dialog', { name: 'Are you sure you want to opt out?' });
    await dialog.getByRole('button', { name: 'Continue to Opt Out' }).waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Stay Opted In' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => optOut.evaluate((el) => el === document.activeElement)).toBe(true);

    await optOut.click();
    await dialog.getByRole('button', { name: 'Continue to Opt Out' }).click();

    // Confirm: the wrong word is refused with the spec's message.
    dialog = page.getByRole('dialog', { name: 'Confirm that you want to opt out' });
    const word = dialog.getByLabel('Type OPTOUT to confirm');
    await expect.poll(() => word.evaluate((el) => el === document.activeElement)).toBe(true);
    await word.fill('opt-out');
    await dialog.getByRole('button', { name: 'Opt Out' }).click();
    await dialog.getByText('Enter the text OPTOUT, one word, in all capital letters').waitFor();
    expect(await word.getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page);
    await word.fill('OPTOUT');
    await dialog.getByRole('button', { name: 'Opt Out' }).click();

    // Feedback: 'Other' needs a message; the label says 255, the field takes 256.
    dialog = page.getByRole('dialog', { name: 'Why are you opting out?' });
    const submit = dialog.getByRole('button', { name: 'Submit' });
    await submit.waitFor();
    expect(await submit.isDisabled()).toBe(true);
    for (const reason of [
      "purchased access directly from the publisher's website",
      'purchased the material elsewhere at a more affordable price',
      'needed a print copy',
      'instructor was not using the material',
    ]) {
      await dialog.getByRole('radio', { name: reason }).waitFor();
    }
    await dialog.getByRole('radio', { name: 'Other' }).check();
    const message = dialog.getByLabel('Tell us more (max 255 characters)');
    expect(await message.getAttribute('maxlength')).toBe('256');
    expect(await submit.isDisabled()).toBe(true);
    await message.fill('   ');
    expect(await submit.isDisabled()).toBe(true);
    await expectAccessible(page);
    await message.fill('I borrowed the book from the campus library.');
    await expect.poll(() => submit.isDisabled()).toBe(false);
    const request = page.waitForRequest((r) => /\/api\/members\/\d+\/opt-out$/.test(r.url()));
    await submit.click();
    const sent = await request;
    const memberId = /\/api\/members\/(\d+)\/opt-out$/.exec(sent.url())![1]!;
    expect(JSON.parse(sent.postData() ?? '{}')).toEqual({
      data: {
        type: 'Member',
        id: memberId,
        attributes: {
          selected_reason: 5,
          message: 'I borrowed the book from the campus library.',
        },
      },
    });

    // Success: Opt Back In or Close, which reloads.
    dialog = page.getByRole('dialog', { name: 'You are now opted out' });
    await dialog.getByRole('button', { name: 'Opt Back In' }).waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Close' }).click();
    // The reloaded page says so, and reading through inclusive access is gone at once.
    await banner(page).getByText(OPTED_OUT).waitFor();
    await waitForHydration(page);
    await page.getByRole('link', { name: title, exact: true }).waitFor();
    expect(await page.getByRole('link', { name: label, exact: true }).count()).toBe(0);
    await expectAccessible(page);

    // Opting in: a failed call opens the error modal with the spec's text.
    const optIn = banner(page).getByRole('button', { name: 'Opt In' });
    await page.route('**/api/members/*/opt-in', (route) =>
      route.fulfill({ status: 500, contentType: 'application/vnd.api+json', body: '{}' }),
    );
    await optIn.click();
    dialog = page.getByRole('dialog', { name: "Let's get you opted in!" });
    await dialog.getByRole('button', { name: 'Stay Opted Out' }).waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Opt In' }).click();
    const error = page.getByRole('dialog', { name: 'Sorry, something went wrong.' });
    await error
      .getByText("We're sorry, your request to opt-in could not be processed. Please try again...")
      .waitFor();
    await error.getByRole('link', { name: 'Contact Support' }).waitFor();
    await expectAccessible(page);
    await error.getByRole('button', { name: 'Close' }).click();
    await error.waitFor({ state: 'detached' });
    await page.unroute('**/api/members/*/opt-in');

    // And for real: confirmed by a reload, with the book back.
    await optIn.click();
    await dialog.getByRole('button', { name: 'Opt In' }).click();
    await banner(page).getByText(OPTED_IN).waitFor();
    await waitForHydration(page);
    await page.getByRole('link', { name: label, exact: true }).waitFor();
    await expectAccessible(page);
    await context.close();
  });

  // Issue 19: every path ends in a state the student sees, and they decide with the facts.
  it('says where the student stands on every path, and shows the fee, inclusions, separate price and deadline', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'student', label: 'opting-19' }));
    await openBio(page);
    const status = banner(page).locator('output');
    expect(await status.textContent()).toBe('');

    // Learn More: the fee, what it includes (by title and type), each one's separate price or
    // that it is not sold separately, the total bought separately, and the deadline with its
    // time and the course's time zone (New York: EST or EDT).
    await banner(page).locator('summary', { hasText: 'Learn More' }).click();
    const facts = banner(page).locator('#opting-facts');
    await facts.getByText('Course fee: $79.00', { exact: true }).waitFor();
    await facts.getByText('The course fee includes:', { exact: true }).waitFor();
    const items = await facts.locator('li').allTextContents();
    expect(items.length).toBe(3);
    for (const item of items) {
      expect(item).toMatch(
        /^.+ \((eBook|Courseware)\): (\$\d+\.\d{2} if bought separately|not sold separately)$/,
      );
    }
    // The section's materials are what it includes: the inclusive-access book among them.
    const readNow = page.getByRole('link', { name: /^Read Now: / }).first();
    const title = ((await readNow.getAttribute('aria-label')) ?? '').replace(/^Read Now: /, '');
    expect(items.some((item) => item.startsWith(`${title} (eBook): `))).toBe(true);
    await facts
      .getByText(
        /^Buying (these materials separately|separately the \d of 3 materials sold separately): \$\d+\.\d{2}$/,
      )
      .waitFor();
    const deadlineLine = facts.getByText(/^Deadline to opt out or back in: /);
    const deadline = ((await deadlineLine.textContent()) ?? '').replace(
      /^Deadline to opt out or back in: /,
      '',
    );
    expect(deadline).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M E[SD]T$/);
    await banner(page).getByRole('link', { name: 'More about inclusive access' }).waitFor();
    await expectAccessible(page);

    // The details step shows the same facts where the decision is made.
    const optOut = banner(page).getByRole('button', { name: 'Opt Out' });
    await optOut.click();
    let dialog = page.getByRole('dialog', { name: 'Are you sure you want to opt out?' });
    await dialog.getByText('Course fee: $79.00', { exact: true }).waitFor();
    await dialog.getByText(`Deadline to opt out or back in: ${deadline}`).waitFor();
    await expectAccessible(page);
    // Stay Opted In: still opted in, said on the page.
    await dialog.getByRole('button', { name: 'Stay Opted In' }).click();
    await dialog.waitFor({ state: 'detached' });
    const stillIn = `You are still opted in. To opt out, choose Opt Out again and complete the short survey before ${deadline}.`;
    await expect.poll(() => status.textContent()).toBe(stillIn);

    // Esc at the survey: nothing was sent, and the page says so and how to finish.
    await page.reload();
    await waitForHydration(page);
    expect(await status.textContent()).toBe('');
    await optOut.click();
    await dialog.getByRole('button', { name: 'Continue to Opt Out' }).click();
    dialog = page.getByRole('dialog', { name: 'Confirm that you want to opt out' });
    await dialog.getByLabel('Type OPTOUT to confirm').fill('OPTOUT');
    await dialog.getByRole('button', { name: 'Opt Out' }).click();
    dialog = page.getByRole('dialog', { name: 'Why are you opting out?' });
    await dialog.getByRole('radio', { name: 'needed a print copy' }).check();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => status.textContent()).toBe(stillIn);
    await banner(page).getByText(OPTED_IN).waitFor();
    await expectAccessible(page);
    await page.reload();
    await banner(page).getByText(OPTED_IN).waitFor();
    await waitForHydration(page);

    // Completed: the reloaded page says what the student is now, and since when.
    await optOut.click();
    dialog = page.getByRole('dialog', { name: 'Are you sure you want to opt out?' });
    await dialog.getByRole('button', { name: 'Continue to Opt Out' }).click();
    dialog = page.getByRole('dialog', { name: 'Confirm that you want to opt out' });
    await dialog.getByLabel('Type OPTOUT to confirm').fill('OPTOUT');
    await dialog.getByRole('button', { name: 'Opt Out' }).click();
    dialog = page.getByRole('dialog', { name: 'Why are you opting out?' });
    await dialog.getByRole('radio', { name: 'needed a print copy' }).check();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    dialog = page.getByRole('dialog', { name: 'You are now opted out' });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await banner(page).getByText(OPTED_OUT).waitFor();
    await waitForHydration(page);
    const since =
      /since [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M E[SD]T\. We sent you a confirmation email\.$/;
    expect(await status.textContent()).toMatch(
      new RegExp(`^You are opted out of BIO 101: Section 001 ${since.source}`),
    );
    await expectAccessible(page);

    // Opting in: Stay Opted Out keeps them out, said on the page; Opt In says so after reload.
    const optIn = banner(page).getByRole('button', { name: 'Opt In' });
    await optIn.click();
    dialog = page.getByRole('dialog', { name: "Let's get you opted in!" });
    await dialog.getByText('Course fee: $79.00', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Stay Opted Out' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(() => status.textContent())
      .toBe(`You are still opted out. To opt in, choose Opt In again before ${deadline}.`);
    await optIn.click();
    await dialog.getByRole('button', { name: 'Opt In' }).click();
    await banner(page).getByText(OPTED_IN).waitFor();
    await waitForHydration(page);
    expect(await status.textContent()).toMatch(
      new RegExp(`^You are opted in to BIO 101: Section 001 ${since.source}`),
    );

    // In French: the status, Learn More's facts and the deadline with its time zone.
    await context.addCookies([{ name: 'LANG', value: 'fr-CA', url: page.url() }]);
    await page.reload();
    await page.getByRole('heading', { name: /^BIO 101 : Section 001$/, level: 1 }).waitFor();
    await waitForHydration(page);
    const region = page.getByRole('region', { name: 'Accès inclusif' });
    expect(await region.locator('output').textContent()).toMatch(
      /^Vous êtes inscrit à BIO 101 : Section 001 depuis le \d{1,2} [a-zéû]+\.? \d{4}, \d{1,2} h \d{2} H[NA]E\. Nous vous avons envoyé un courriel de confirmation\.$/,
    );
    await region.locator('summary', { hasText: 'En savoir plus' }).click();
    const faits = region.locator('#opting-facts');
    await faits.getByText(/^Frais de cours : 79,00\s\$\sUS$/).waitFor();
    await faits.getByText('Les frais de cours comprennent :', { exact: true }).waitFor();
    expect(await faits.locator('li').allTextContents()).toContainEqual(
      expect.stringMatching(
        new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(livre numérique\\) : `),
      ),
    );
    await faits
      .getByText(
        /^Date limite pour vous désinscrire ou vous réinscrire : \d{1,2} [a-zéû]+\.? \d{4}, \d{1,2} h \d{2} H[NA]E$/,
      )
      .waitFor();
    await expectAccessible(page);
    await context.close();
  });

  it('refuses a direct call for a member id that is not the student’s', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'student', label: 'opting' }));
    const status = await page.evaluate(async () => {
      const login = await fetch('/api/account/login', { credentials: 'same-origin' });
      const token = (await login.json()).data.attributes.csrfToken as string;
      const response = await fetch('/api/members/2000000000/opt-out', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/vnd.api+json', 'X-CSRFToken': token },
        body: JSON.stringify({ data: { type: 'Member', attributes: { selected_reason: 1 } } }),
      });
      return response.status;
    });
    expect(status).toBe(404);
    await context.close();
  });
});
