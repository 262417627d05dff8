import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  launchBrowser,
  logIn,
  newContext,
  openUserMenu,
  waitForHydration,
} from './browser.ts';
import { type MadeUser, makeUser } from './fixtures.ts';

// Issue 14, Classroom (spec 2 §4 Classroom: "section/{id}?type=instructor or student"; spec 1
// §4 Classroom redeem prompt, §6): 'Access Classroom' used to lead back to the store's product
// page. The demo classroom belongs to CS 120 section 001, whose code is CS120-ROSE
// (db/seed/courses.ts). Each test makes its own professor (like instructor@demo.test), student
// (like student@demo.test: owns the classroom, code not confirmed) and stranger; other
// journeys share the section, so a test looks for its own note and its own student.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const SECTION_CODE = 'CS120-ROSE';
const CLASSROOM_URL = /\/classroom\/\d+\/section\/\d+\?type=(instructor|student)/;

async function as(person: MadeUser, language: 'en' | 'fr' = 'en'): Promise<Page> {
  const context = await newContext(browser);
  const page = await context.newPage();
  await logIn(page, person);
  if (language === 'fr') {
    await page.goto('/account/language?next=/shelf');
    await waitForHydration(page);
    await page.getByLabel('Français (Canada)').check();
    await Promise.all([
      page.waitForURL((url) => url.pathname.startsWith('/shelf')),
      page.getByRole('button', { name: /^(Continue|Continuer)$/ }).click(),
    ]);
    await waitForHydration(page);
  }
  return page;
}

/** From My Shelf to CS 120's course section page, then its classroom's Access Classroom. */
async function enterFromCourseSection(page: Page, accessLabel: RegExp): Promise<void> {
  await page.goto('/shelf');
  await page.locator('.course-card__link', { hasText: 'CS 120' }).first().click();
  await page.getByRole('heading', { level: 1, name: /CS 120/ }).waitFor();
  await waitForHydration(page);
  await page.getByRole('link', { name: accessLabel }).click();
  await page.waitForURL(CLASSROOM_URL);
  await waitForHydration(page);
}

/** A note to the class as it reads on the page (its edit field holds the text too). */
const noteOn = (page: Page, text: string) => page.getByRole('paragraph').filter({ hasText: text });

/** Writes a note with the keyboard alone: Tab to the field, type, Tab to the button, Enter. */
async function postNoteByKeyboard(page: Page, fieldLabel: string, text: string): Promise<void> {
  const field = page.getByLabel(fieldLabel);
  await page.locator('body').focus();
  for (let presses = 0; presses < 80; presses += 1) {
    if (await field.evaluate((el) => el === document.activeElement)) break;
    await page.keyboard.press('Tab');
  }
  expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
  await page.keyboard.type(text);
  await page.keyboard.press('Tab');
  await Promise.all([page.waitForURL(/#notes$/), page.keyboard.press('Enter')]);
  await noteOn(page, text).waitFor();
}

describe('the classroom, in English', () => {
  it('instructor view and a note; the student is prompted, confirms the code on My Shelf and reads it; a stranger is refused with the reason', async () => {
    const [professor, student, stranger] = await Promise.all([
      makeUser({ like: 'instructor', label: 'classroom-prof' }),
      makeUser({ like: 'student', label: 'classroom-student' }),
      makeUser({ label: 'classroom-stranger' }),
    ]);
    const note = `Bring your laptop to the lab on Thursday (${student.email}).`;

    // The professor: Access Classroom on the course section page opens the instructor view.
    const teacher = await as(professor);
    await enterFromCourseSection(teacher, /^Access Classroom: /);
    expect(teacher.url()).toMatch(/type=instructor$/);
    await teacher.getByText('Instructor view', { exact: true }).waitFor();
    const classroomTitle = await teacher.getByRole('heading', { level: 1 }).innerText();
    expect(await teacher.title()).toMatch(new RegExp(`^${classroomTitle} \\| `));
    await teacher.getByRole('heading', { level: 2, name: 'Notes to the class' }).waitFor();
    await teacher.getByRole('heading', { level: 2, name: 'Who has joined' }).waitFor();
    await expectAccessible(teacher);
    await postNoteByKeyboard(teacher, 'New note to the class', note);
    await expectAccessible(teacher);
    const classroomUrl = new URL(teacher.url());
    classroomUrl.hash = '';

    // The student, before the code: the prompt, even at the instructor's own URL.
    const learner = await as(student);
    await learner.goto(classroomUrl.pathname + classroomUrl.search);
    await learner.getByRole('heading', { level: 2, name: 'Join your classroom' }).waitFor();
    expect(await noteOn(learner, note).count()).toBe(0);
    await expectAccessible(learner);

    // On My Shelf: Access Classroom opens the material's panel, where the prompt is.
    await learner.goto('/shelf');
    await waitForHydration(learner);
    await learner
      .getByRole('link', { name: /^Access Classroom: / })
      .first()
      .click();
    const panel = learner.getByRole('complementary');
    await panel
      .getByText('Enter the section code your instructor gave you to join your classroom.')
      .waitFor();
    await panel.getByLabel('Section code').fill('NOT-THE-CODE');
    await panel.getByRole('button', { name: 'Confirm Section Code' }).click();
    await panel
      .getByText(
        'That section code does not match this classroom. Please check it with your instructor.',
      )
      .waitFor();
    await panel.getByLabel('Section code').fill(SECTION_CODE);
    await panel.getByRole('button', { name: 'Confirm Section Code' }).click();
    await panel.getByRole('link', { name: 'Access Classroom', exact: true }).click();
    await learner.waitForURL(/type=student$/);
    await learner.getByText('Student view', { exact: true }).waitFor();
    await noteOn(learner, note).waitFor();
    expect(await learner.getByLabel('New note to the class').count()).toBe(0);
    expect(await learner.getByRole('heading', { name: 'Who has joined' }).count()).toBe(0);
    await expectAccessible(learner);
    // Asking for the instructor's view still shows the student's.
    await learner.goto(classroomUrl.pathname + classroomUrl.search);
    await learner.getByText('Student view', { exact: true }).waitFor();
    expect(await learner.getByRole('button', { name: 'Post Note' }).count()).toBe(0);
    // The classroom's product page opens it too.
    const productId = classroomUrl.pathname.split('/')[2];
    await learner.goto(`/classroom/${productId}`);
    await waitForHydration(learner);
    await learner.getByRole('link', { name: 'Access Classroom', exact: true }).click();
    await learner.waitForURL(/type=student$/);
    await noteOn(learner, note).waitFor();
    // Now My Shelf's own button goes straight in.
    await learner.goto('/shelf');
    await waitForHydration(learner);
    await learner
      .getByRole('link', { name: /^Access Classroom: / })
      .first()
      .click();
    await learner.waitForURL(/type=student$/);
    await learner.getByText('Student view', { exact: true }).waitFor();

    // The professor now sees the student among those who joined.
    await teacher.reload();
    await teacher
      .getByRole('table', { name: /joined with the section code/ })
      .getByRole('cell', { name: student.email, exact: true })
      .waitFor();

    // Someone else at the same URL: a 403 that says why.
    const outsider = await as(stranger);
    const refused = await outsider.goto(classroomUrl.pathname + classroomUrl.search);
    expect(refused?.status()).toBe(403);
    expect(await outsider.title()).toBe('Forbidden | Shelfmark');
    await outsider
      .getByRole('heading', {
        level: 1,
        name: 'This classroom is not yours to enter. Buy it, then enter the section code your instructor gave you on My Shelf.',
      })
      .waitFor();
    await expectAccessible(outsider);

    for (const page of [teacher, learner, outsider]) await page.context().close();
  });
});

describe('notes to the class', () => {
  it('a blank note is refused with its message; a note is edited and deleted', async () => {
    const teacher = await as(await makeUser({ like: 'instructor', label: 'classroom-notes' }));
    await enterFromCourseSection(teacher, /^Access Classroom: /);
    const field = teacher.getByLabel('New note to the class');
    await field.fill('   ');
    await teacher.getByRole('button', { name: 'Post Note' }).click();
    await teacher.getByText('Write a note before posting it.').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(teacher);

    const first = `Office hours move to room 204 (${Date.now()}).`;
    await field.fill(first);
    await teacher.getByRole('button', { name: 'Post Note' }).click();
    const item = teacher.getByRole('listitem').filter({ has: noteOn(teacher, first) });
    await item.waitFor();
    await item.getByText('Edit', { exact: true }).click();
    const edited = first.replace('204', '310');
    await item.getByLabel('Note', { exact: true }).fill(edited);
    await item.getByRole('button', { name: 'Save Note' }).click();
    const after = teacher.getByRole('listitem').filter({ has: noteOn(teacher, edited) });
    await after.getByText(/\(edited /).waitFor();
    expect(await noteOn(teacher, first).count()).toBe(0);
    await expectAccessible(teacher);
    await after.getByRole('button', { name: /^Delete the note of / }).click();
    await teacher.waitForURL(/#notes$/);
    await expect.poll(() => noteOn(teacher, edited).count()).toBe(0);
    await teacher.context().close();
  });
});

describe('My Classrooms', () => {
  it('the user menu lists the classrooms a professor teaches, each opening its instructor view', async () => {
    const teacher = await as(await makeUser({ like: 'instructor', label: 'my-classrooms' }));
    await teacher.goto('/shelf');
    await waitForHydration(teacher);
    await openUserMenu(teacher);
    await teacher.getByRole('menu').getByRole('menuitem', { name: 'My Classrooms' }).click();
    await teacher.getByRole('heading', { level: 1, name: 'My Classrooms' }).waitFor();
    await teacher.getByText('Programming Studio', { exact: false }).first().waitFor();
    await expectAccessible(teacher);
    await teacher.getByRole('link', { name: /^Access Classroom: .*CS 120: Section 001$/ }).click();
    await teacher.waitForURL(/type=instructor$/);
    await teacher.getByText('Instructor view', { exact: true }).waitFor();
    // Issue 38: My Account names the role in words, and a professor is not "Student".
    await teacher.goto('/account');
    const roles = teacher
      .locator('dt', { hasText: 'Roles' })
      .locator('xpath=following-sibling::dd[1]');
    expect(await roles.innerText()).toBe('Instructor');
    await teacher.context().close();
  });
});

describe('the classroom, in French', () => {
  it('vue de l’enseignant, la note, le code entré dans la classe, la vue de l’étudiant et le refus motivé', async () => {
    const [professor, student, stranger] = await Promise.all([
      makeUser({ like: 'instructor', label: 'classroom-prof-fr' }),
      makeUser({ like: 'student', label: 'classroom-student-fr' }),
      makeUser({ label: 'classroom-stranger-fr' }),
    ]);
    const note = `Lisez le chapitre 3 avant lundi (${student.email}).`;

    const teacher = await as(professor, 'fr');
    await enterFromCourseSection(teacher, /^Accéder à la classe : /);
    await teacher.getByText('Vue de l’enseignant', { exact: true }).waitFor();
    await teacher.getByRole('heading', { level: 2, name: 'Notes à la classe' }).waitFor();
    await postNoteByKeyboard(teacher, 'Nouvelle note à la classe', note);
    await teacher.getByRole('heading', { level: 2, name: 'Qui s’est joint à la classe' }).waitFor();
    await expectAccessible(teacher);
    const classroomUrl = new URL(teacher.url());
    classroomUrl.hash = '';
    const path = `${classroomUrl.pathname}?type=student`;

    // The student enters the code on the classroom's own prompt.
    const learner = await as(student, 'fr');
    await learner.goto(path);
    await learner.getByRole('heading', { level: 2, name: 'Rejoignez votre classe' }).waitFor();
    await waitForHydration(learner);
    await expectAccessible(learner);
    await learner.getByLabel('Code de section').fill(SECTION_CODE.toLowerCase());
    await learner.getByRole('button', { name: 'Confirmer le code de section' }).click();
    await learner.getByText('Vue de l’étudiant', { exact: true }).waitFor();
    await noteOn(learner, note).waitFor();
    await expectAccessible(learner);

    const outsider = await as(stranger, 'fr');
    const refused = await outsider.goto(path);
    expect(refused?.status()).toBe(403);
    await outsider
      .getByRole('heading', {
        level: 1,
        name: /^Vous ne pouvez pas entrer dans cette classe\./,
      })
      .waitFor();
    await expectAccessible(outsider);

    for (const page of [teacher, learner, outsider]) await page.context().close();
  });
});
