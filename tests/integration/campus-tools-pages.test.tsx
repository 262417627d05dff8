import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import type { Locale } from '#domain/accounts/language.ts';
import { createCourse } from '#domain/courses/course-admin-service.ts';
import { addMember } from '#domain/courses/section-people-service.ts';
import { openTestDatabase, testWebContext } from '#tests/database.ts';
import { renderPage, tableRows, textOf } from '#tests/render-page.tsx';
import { loadCatalog } from '#web/i18n/catalog.ts';
import BillingTermPage, { action as billingAction } from '#web/manage/billing/billing-term.tsx';
import NewSectionPage, {
  action as newSectionAction,
  loader as newSectionLoader,
} from '#web/manage/courses/new-section.tsx';
import SectionPage, { loader as sectionLoader } from '#web/manage/courses/section.tsx';
import TermPage, { loader as termLoader } from '#web/manage/courses/term.tsx';
import { meta as peopleMeta } from '#web/manage/helpdesk/people-search.tsx';
import { meta as orderMeta } from '#web/manage/refunds/order.tsx';
import { meta as refundRequestsMeta } from '#web/manage/refunds/requests.tsx';
import { meta as rosterMeta } from '#web/manage/roster/roster-imports.tsx';
import { courseAdminFixtures, type Staff, sectionInput } from './course-admin-fixtures.ts';

// Issue 39's campus tools as staff read them, from a browser walk: a table's dates in words,
// a saved fee in the reader's own format, no stale notice above a question, and a billing run
// that asks before it is final. In English and French.

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const now = new Date('2026-08-01T15:00:00Z');
const { person, campusWithSection, answer } = courseAdminFixtures(() => database, now);

/** A page's loader, as the person asks it in a language, at this URL. */
async function loaded(
  loader: (args: never) => Promise<unknown>,
  staff: Staff,
  url: string,
  params: Record<string, string>,
  locale: Locale,
) {
  const user = { ...staff.user, flags: { ...staff.user.flags, isCourseManagerEnabled: true } };
  return loader({
    request: new Request(`http://127.0.0.1${url}`),
    params,
    context: testWebContext(database, { user, now, locale }),
  } as never);
}

describe('issue 39: Course Manager pages, as staff read them', () => {
  it("issue 39: a term's sections say their dates in words, not YYYY-MM-DD", async () => {
    const { staff, termId } = await campusWithSection();
    const params = { termId: String(termId) };
    const url = `/manage/course-manager/terms/${termId}`;
    const en = await renderPage('en', TermPage, await loaded(termLoader, staff, url, params, 'en'));
    expect(tableRows(en, 'Sections')[1]![1]).toBe('Aug 24, 2026 to Dec 15, 2026');
    const fr = await renderPage(
      'fr-CA',
      TermPage,
      await loaded(termLoader, staff, url, params, 'fr-CA'),
    );
    expect(tableRows(fr, 'Sections')[1]![1]).toBe('du 24 août 2026 au 15 déc. 2026');
  });

  it("issue 39: a saved section's fee shows as the reader writes it: 79.00, « 79,00 »", async () => {
    const { staff, sectionId } = await campusWithSection();
    const params = { sectionId: String(sectionId) };
    const url = `/manage/course-manager/sections/${sectionId}`;
    const en = await renderPage(
      'en',
      SectionPage,
      await loaded(sectionLoader, staff, url, params, 'en'),
    );
    expect(en).toMatch(/name="fee"[^>]*value="79\.00"|value="79\.00"[^>]*name="fee"/);
    const fr = await renderPage(
      'fr-CA',
      SectionPage,
      await loaded(sectionLoader, staff, url, params, 'fr-CA'),
    );
    expect(fr).toMatch(/name="fee"[^>]*value="79,00"|value="79,00"[^>]*name="fee"/);
    expect(textOf(fr)).toContain('En dollars et en cents, par exemple 79,00.');
  });

  it('issue 39: after a member is added, Remove asks its question without repeating "The member is added."', async () => {
    const { staff, sectionId } = await campusWithSection();
    const student = await person({ orgId: staff.user.orgId });
    await addMember(staff, sectionId, { email: student.user.email, role: 'student' });
    const params = { sectionId: String(sectionId) };
    // The page the add redirected to, and the question the Remove post answered with there.
    const url = `/manage/course-manager/sections/${sectionId}?done=memberAdded`;
    for (const [locale, added, asked] of [
      ['en', 'The member is added.', 'Remove Ada <ada@example.test> from the section?'],
      ['fr-CA', 'Le membre est ajouté.', 'Retirer Ada <ada@example.test> de la section?'],
    ] as const) {
      const data = await loaded(sectionLoader, staff, url, params, locale);
      expect(textOf(await renderPage(locale, SectionPage, data))).toContain(added);
      const html = await renderPage(locale, SectionPage, data, {
        actionData: {
          question: { intent: 'member-remove', memberId: 1, name: 'Ada <ada@example.test>' },
        },
      });
      expect(textOf(html)).toContain(asked);
      expect(textOf(html)).not.toContain(added);
    }
  });
});

describe('decision 036: a regular course is not asked an opt-out deadline', () => {
  it('decision 036: its new-section form has no deadline; made without one; a fee course asks for it, and a blank one is required, not a format', async () => {
    const { orgId, staff, courseId: feeCourse } = await campusWithSection();
    const regular = await createCourse(staff, {
      orgId,
      name: 'Studio',
      department: 'CS',
      number: '120',
      courseType: 'lms_ecommerce',
    });
    if (!regular.ok) throw new Error('course');
    const pageOf = async (courseId: number) =>
      textOf(
        await renderPage(
          'en',
          NewSectionPage,
          await loaded(
            newSectionLoader,
            staff,
            `/manage/course-manager/courses/${courseId}/sections/new`,
            { courseId: String(courseId) },
            'en',
          ),
        ),
      );
    expect(await pageOf(regular.id)).not.toContain('Opt-out deadline');
    expect(await pageOf(feeCourse)).toContain('Opt-out deadline');

    const post = (courseId: number, over: Record<string, string>) =>
      answer(
        newSectionAction as never,
        staff,
        `/manage/course-manager/courses/${courseId}/sections/new`,
        { courseId: String(courseId) },
        { ...sectionInput({ ...over, number: '' }), intent: 'section' },
      );
    const blank = { optOutDate: '', optOutTime: '', dropDate: '', dropTime: '' };
    expect((await post(regular.id, { ...blank, fee: '' })).status).toBe(302);
    const refused = await post(feeCourse, { ...blank, optOutTime: '23:59' });
    expect(refused.status).toBe(400);
    expect(refused.data?.errors).toEqual({ optOutDate: 'ops.courses.error.optOutRequired' });
  });
});

describe('issue 39: billing asks before a run is final', () => {
  it('issue 39: Finalise run without confirm=yes only asks; nothing is billed', async () => {
    const { staff, termId } = await campusWithSection();
    const asked = await answer(
      billingAction as never,
      staff,
      `/manage/billing/terms/${termId}`,
      { termId: String(termId) },
      { intent: 'finalise', fingerprint: 'abc' },
    );
    expect(asked).toEqual({ status: 200, data: { confirmFinalise: { fingerprint: 'abc' } } });
  });

  it('issue 39: the question says what the file will hold and that it cannot be undone; a stale one says billing changed', async () => {
    const line = {
      kind: 'charge',
      sectionId: 1,
      userId: 2,
      campusId: 'S-1',
      name: 'Zoë Student',
      email: 'zoe@example.test',
      courseCode: 'BIO 101',
      sectionLabel: '001',
      amountCents: 7900,
      creditReason: null,
    };
    const view = {
      term: { id: 7, orgId: 1, title: 'Fall 2026' },
      preview: {
        lines: [line],
        totals: { chargeCount: 1, creditCount: 0, totalCents: 7900 },
        waiting: [],
        missingCampusId: [],
        fingerprint: 'abc',
      },
      runs: [],
      charges: [],
      currency: 'USD',
      made: 3,
      audit: [],
      timeZone: 'America/Toronto',
      csrfToken: 'token',
    };
    const question = { confirmFinalise: { fingerprint: 'abc' } };
    const en = textOf(await renderPage('en', BillingTermPage, view, { actionData: question }));
    expect(en).toContain(
      'Finalise billing for Fall 2026? 1 charge, 0 credits, net $79.00. This cannot be undone: a refund or a drop is credited in a later file. Finalise run Cancel',
    );
    // A file made earlier is not announced again above the question.
    expect(en).not.toContain('File 3 is final.');
    const fr = textOf(await renderPage('fr-CA', BillingTermPage, view, { actionData: question }));
    expect(fr).toContain('Finaliser la facturation de Fall 2026?');
    expect(fr).toContain(
      'C’est irréversible : un remboursement ou un abandon est crédité dans un fichier ultérieur. Finaliser la facturation Annuler',
    );
    // Asked of a preview that has changed since: said, not asked.
    const stale = textOf(
      await renderPage('en', BillingTermPage, view, {
        actionData: { confirmFinalise: { fingerprint: 'old' } },
      }),
    );
    expect(stale).toContain('The billing changed since this preview.');
    expect(stale).not.toContain('Finalise billing for');
  });
});

describe('issue 39: every campus page names itself in the tab as the store does', () => {
  it('issue 39: "Page | Shelfmark" on roster imports, refund requests and an order; My Users says My Users', async () => {
    const titleOf = (
      meta: (args: never) => unknown,
      locale: Locale,
      data: unknown = {},
    ): string => {
      const matches = [{ id: 'root', data: { locale, site: { title: 'Shelfmark' } } }];
      const tags = meta({ matches, data, loaderData: data } as never) as { title?: string }[];
      return tags.find((tag) => tag.title)?.title ?? '';
    };
    await loadCatalog('en');
    await loadCatalog('fr-CA');
    expect(titleOf(rosterMeta as never, 'en')).toBe('Roster imports | Shelfmark');
    expect(titleOf(refundRequestsMeta as never, 'en')).toBe('Refund requests | Shelfmark');
    expect(titleOf(orderMeta as never, 'en', { order: { number: '5E1F-0000-0000' } })).toBe(
      'Order 5E1F-0000-0000 | Shelfmark',
    );
    expect(titleOf(peopleMeta as never, 'fr-CA', { heading: 'menu.myUsers' })).toBe(
      'Mes utilisateurs | Shelfmark',
    );
    expect(titleOf(peopleMeta as never, 'fr-CA', { heading: 'menu.users' })).toBe(
      'Utilisateurs | Shelfmark',
    );
  });
});
