import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseUrl,
  expectAccessible,
  launchBrowser,
  logIn,
  newContext,
  waitForHydration,
} from './browser.ts';
import { makeOwnership, makeUser } from './fixtures.ts';

// Issue 14, courseware launch, tried as a new user would on a fresh clone: the demo seed
// registers the demo tool that ships with the project (LTI 1.3 for bio001's courseware, LTI 1.1
// for the student's own courseware and chem001's), and the student and the instructor arrive
// in it as themselves, with their role and course section. Each journey has its own users.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The id of the demo section titled `title` on My Shelf, and of its courseware. */
async function sectionCourseware(page: Page, title: string) {
  await page.goto('/shelf');
  const card = page.locator('a.course-card__link', { hasText: title }).first();
  const href = await card.getAttribute('href');
  const sectionId = Number(/course-section\/(\d+)/.exec(href ?? '')?.[1]);
  await page.goto(`/shelf/course-section/${sectionId}`);
  const link = page
    .locator('.shelf-tile')
    .filter({ has: page.locator('.pill', { hasText: /^courseware$/i }) })
    .locator('a[href^="/product-detail/"]')
    .first();
  const productId = Number(
    /product-detail\/(\d+)/.exec((await link.getAttribute('href')) ?? '')?.[1],
  );
  return { sectionId, productId };
}

describe('Access Courseware, LTI 1.1 (Link 1.0) from My Shelf', () => {
  it('opens the demo tool in a new tab, where the student arrives as a learner', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const student = await makeUser({ like: 'student', label: 'launch11' });
    await logIn(page, student);
    await page.goto('/shelf?type=courseware');
    await page.locator('.shelf-tile .item-tile__title a').first().click();
    const panel = page.getByRole('complementary');
    const button = panel.getByRole('button', { name: /^Access Courseware/ });
    await button.waitFor();
    await waitForHydration(page);
    await expectAccessible(page);
    const [tab] = await Promise.all([context.waitForEvent('page'), button.click()]);
    await tab.waitForLoadState();
    await expect
      .poll(() => tab.locator('#welcome').textContent(), { timeout: 15_000 })
      .toBe(`Welcome, ${student.firstName} ${student.lastName} (Learner) — no course section`);
    await tab
      .getByText('Launch verified: an LTI 1.1 launch with a valid OAuth signature.')
      .waitFor();
    await context.close();
  });

  it('over LTI 1.3: owned section courseware opens the tool in a new tab with its course section', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const student = await makeUser({ like: 'student', label: 'launch13-shelf' });
    await logIn(page, student);
    const { productId } = await sectionCourseware(page, 'BIO 101');
    await makeOwnership(student.email, productId);
    await page.goto(`/shelf?material=${productId}`);
    const button = page
      .getByRole('complementary')
      .getByRole('button', { name: /^Access Courseware/ });
    await button.waitFor();
    await waitForHydration(page);
    const [tab] = await Promise.all([context.waitForEvent('page'), button.click()]);
    await expect
      .poll(() => tab.locator('#welcome').textContent(), { timeout: 15_000 })
      .toMatch(
        new RegExp(
          `^Welcome, ${student.firstName} ${student.lastName} \\(Learner\\) — BIO 101 001 — `,
        ),
      );
    await tab.getByText(/^Launch verified: an LTI 1\.3 id_token signed by Shelfmark/).waitFor();
    await context.close();
  });

  it('a tampered launch fails at the tool, which sends the user back to us with the reason', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'student', label: 'launch-tampered' }));
    // Someone between the browser and the tool makes the learner an instructor.
    await context.route('**/demo-tool/lti11/launch', (route) =>
      route.continue({
        postData: (route.request().postData() ?? '').replace('roles=Learner', 'roles=Instructor'),
      }),
    );
    await page.goto('/shelf?type=courseware');
    await page.locator('.shelf-tile .item-tile__title a').first().click();
    const button = page
      .getByRole('complementary')
      .getByRole('button', { name: /^Access Courseware/ });
    await button.waitFor();
    await waitForHydration(page);
    const [tab] = await Promise.all([context.waitForEvent('page'), button.click()]);
    await tab
      .getByRole('alert')
      .getByText('The demo tool refused this launch: invalid signature')
      .waitFor({ timeout: 15_000 });
    await tab.getByRole('link', { name: 'Return to Shelfmark' }).click();
    await tab.getByRole('heading', { name: 'Back from your courseware' }).waitFor();
    await tab
      .getByRole('alert')
      .getByText('The courseware provider reported a problem: invalid signature')
      .waitFor();
    await expectAccessible(tab);
    await context.close();
  });

  it('a failed launch shows its reason in the panel’s footer and hides the button', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'student', label: 'launch-fails' }));
    await page.goto('/shelf?type=courseware');
    await page.locator('.shelf-tile .item-tile__title a').first().click();
    const panel = page.getByRole('complementary');
    const button = panel.getByRole('button', { name: /^Access Courseware/ });
    await button.waitFor();
    await waitForHydration(page);
    // The session ends elsewhere (logged out in another tab): authorize answers the error.
    await context.clearCookies();
    await button.click();
    await panel.getByRole('alert').getByText("Sorry, you can't access this page.").waitFor();
    expect(await button.count()).toBe(0);
    await expect.poll(() => context.pages().length).toBe(1);
    await context.close();
  });
});

describe('Courseware launch over LTI 1.3 (Link 2.0) into the demo tool', () => {
  it('the course-fee student arrives as a Learner of BIO 101, the instructor as Instructor', async () => {
    for (const [like, role] of [
      ['student', 'Learner'],
      ['instructor', 'Instructor'],
    ] as const) {
      const context = await newContext(browser);
      const page = await context.newPage();
      const person = await makeUser({ like, label: `launch13-${like}` });
      await logIn(page, person);
      const { sectionId, productId } = await sectionCourseware(page, 'BIO 101');
      expect(sectionId).toBeGreaterThan(0);
      await page.goto(
        `/lti/launch/?courseware_id=${productId}&section_id=${sectionId}&new_tab=True`,
      );
      const welcome = page.locator('#welcome');
      await welcome.waitFor({ timeout: 15_000 });
      expect(await welcome.textContent()).toMatch(
        new RegExp(
          `^Welcome, ${person.firstName} ${person.lastName} \\(${role}\\) — BIO 101 001 — `,
        ),
      );
      await page.getByText(/^Launch verified: an LTI 1\.3 id_token signed by Shelfmark/).waitFor();
      await expectAccessible(page);
      // Back in Shelfmark through the launch's return URL, to the course section.
      await page.getByRole('link', { name: 'Return to Shelfmark' }).click();
      await page.getByRole('heading', { name: 'Back from your courseware' }).waitFor();
      await expectAccessible(page);
      await page.getByRole('link', { name: 'Back to the course section' }).click();
      await page.waitForURL(new RegExp(`/shelf/course-section/${sectionId}`));
      if (like === 'instructor') {
        // Counted in the section's analytics (the instructor's own launch at least).
        await page.goto(`/courses/analytics/${sectionId}`);
        const table = page.locator('table', { hasText: 'Courseware launches' });
        await table.waitFor();
        const launched = Number(await table.locator('tbody tr td').first().textContent());
        expect(launched).toBeGreaterThanOrEqual(1);
        await expectAccessible(page);
      }
      await context.close();
    }
  });

  it('a replayed launch and another user’s launch are refused, with the reason, in English and French', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const student = await makeUser({ like: 'student', label: 'launch-refused' });
    await logIn(page, student);
    const { sectionId, productId } = await sectionCourseware(page, 'BIO 101');
    // Someone with no right to it: a user in no section who owns nothing.
    const stranger = await makeUser({ label: 'launch-stranger' });
    const other = await newContext(browser);
    const strangerPage = await other.newPage();
    await logIn(strangerPage, stranger);
    const refused = await strangerPage.goto(
      `/lti/launch/?courseware_id=${productId}&section_id=${sectionId}`,
    );
    expect(refused?.status()).toBe(403);
    await strangerPage.getByText('You do not have access to this courseware.').waitFor();
    await expectAccessible(strangerPage);
    // In French (the LANG cookie, the stranger having stored no language).
    await other.addCookies([{ name: 'LANG', value: 'fr-CA', url: baseUrl() }]);
    await strangerPage.goto(`/lti/launch/?courseware_id=${productId}&section_id=${sectionId}`);
    await strangerPage.getByText('Vous n’avez pas accès à ce didacticiel.').waitFor();
    await strangerPage
      .getByRole('heading', { name: 'Le didacticiel n’a pas pu être lancé' })
      .waitFor();
    await other.close();

    // The tool's authentication request replayed: the message hint is spent.
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/lti1p3/link/launch/')) requests.push(request.url());
    });
    await page.goto(`/lti/launch/?courseware_id=${productId}&section_id=${sectionId}`);
    await page.locator('#welcome').waitFor({ timeout: 15_000 });
    expect(requests).toHaveLength(1);
    const replay = await page.goto(requests[0]!);
    expect(replay?.status()).toBe(403);
    await page
      .getByText(
        'This launch has expired or was already used. Please launch the courseware again from your shelf.',
      )
      .waitFor();
    await context.close();
  });

  it('the launch calls of spec 2 §7 answer their fields', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const student = await makeUser({ like: 'student', label: 'launch-calls' });
    await logIn(page, student);
    const { sectionId, productId } = await sectionCourseware(page, 'BIO 101');
    // Courseware launch 2.0: html_form, redirect_uri, id_token, state (the last two come with
    // the tool's authentication request, decision 017).
    const launch = await page.request.get(
      `/lti/launch/?section_id=${sectionId}&courseware_id=${productId}&new_tab=True&format=json`,
    );
    expect(launch.status()).toBe(200);
    const data = await launch.json();
    expect(data).toMatchObject({ id_token: null, state: null, lti_version: '1.3' });
    expect(data.redirect_uri).toMatch(/\/demo-tool\/lti13\/login$/);
    expect(data.html_form).toContain('name="lti_message_hint"');
    // Launch 1.0 authorize: target_url and cache_key, or error.
    await page.goto('/shelf?type=courseware');
    const own = await page.locator('.shelf-tile .item-tile__title a').first().getAttribute('href');
    const owned = Number(/material=(\d+)/.exec(own ?? '')?.[1]);
    const authorize = await page.request.get(`/lti1p0/link/authorize/?courseware_id=${owned}`);
    expect(await authorize.json()).toMatchObject({
      target_url: expect.stringMatching(/\/demo-tool\/lti11\/launch$/),
      cache_key: expect.any(String),
      error: null,
    });
    const refused = await page.request.get(
      `/lti1p0/link/authorize/?courseware_id=${productId}&section_id=${sectionId}`,
    );
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error).toBe(
      'We are having trouble accessing your courseware. Please reach out to our support team for additional help.',
    );
    await context.close();
  });

  it('publishes its keys: the JWKS has an RS256 key with a kid', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const response = await page.goto('/lti1p3/jwks');
    const jwks = (await response?.json()) as { keys: { kid: string; alg: string; kty: string }[] };
    expect(jwks.keys.length).toBeGreaterThan(0);
    expect(jwks.keys[0]).toMatchObject({ alg: 'RS256', kty: 'RSA' });
    expect(jwks.keys[0]!.kid).toBeTruthy();
    await context.close();
  });
});

describe('The registry of courseware tools (/manage/courseware-tools)', () => {
  it('managers list and edit tools; secrets are never shown back; others are refused', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'manager', label: 'lti-registry' }));
    await page.goto('/manage/courseware-tools');
    await page.getByRole('heading', { name: 'Courseware tools', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Registered courseware tools (LTI)' });
    await table.getByText('Shelfmark demo tool (LTI 1.3)').waitFor();
    expect(await page.content()).not.toContain('shelfmark-demo-secret');
    await waitForHydration(page);
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Edit Shelfmark demo tool (LTI 1.1)' }).first().click();
    await page.getByRole('heading', { name: 'Edit Shelfmark demo tool (LTI 1.1)' }).waitFor();
    const secret = page.getByLabel('Shared secret');
    expect(await secret.inputValue()).toBe('');
    expect(await secret.getAttribute('placeholder')).toBe('Stored: leave blank to keep it');
    // A bad address is refused with its reason; the stored secret is kept on a good save.
    await page.getByLabel('Launch URL').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Save tool' }).click();
    await page.getByText('Enter an http or https address, or a path on this site.').waitFor();
    await page.getByLabel('Launch URL').fill('/demo-tool/lti11/launch');
    await page.getByRole('button', { name: 'Save tool' }).click();
    await page.getByText('The tool is saved.').waitFor();
    await expect
      .poll(() => table.getByText('shelfmark-demo-consumer · secret stored').count())
      .toBeGreaterThan(0);
    await context.close();

    const student = await newContext(browser);
    const studentPage = await student.newPage();
    await logIn(studentPage, await makeUser({ like: 'student', label: 'lti-registry-student' }));
    const refused = await studentPage.goto('/manage/courseware-tools');
    expect(refused?.status()).toBe(403);
    await student.close();
  });
});
