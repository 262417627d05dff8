import { useState } from 'react';
import { data, Link, redirect, useLoaderData } from 'react-router';
import { z } from 'zod';
import { sectionClassroomEntries } from '#domain/access/classroom.ts';
import { DEFAULT_LOCALE } from '#domain/accounts/language.ts';
import { optingFacts } from '#domain/courses/service.ts';
import { parseId } from '#domain/shared/id.ts';
import { acquireCourseMaterial, courseSectionView } from '#domain/shelf/course-section.ts';
import { dayIn, sectionTitle } from '#domain/shelf/sections.ts';
import { formatDay } from '#i18n/format-day.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { RedeemDialog } from '#web/access/redeem-dialog.tsx';
import { MaterialTile } from '#web/components/material-tile.tsx';
import { PartnerPurchaseModal } from '#web/components/partner-purchase-modal.tsx';
import { ProductSideSheet } from '#web/components/product-side-sheet.tsx';
import { ShelfActionButton } from '#web/components/shelf-action.tsx';
import { OptingBanner } from '#web/courses/opting-banner.tsx';
import { idField } from '#web/forms/fields.ts';
import { loadedLocale, translatePage } from '#web/i18n/catalog.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { sectionTitleText } from '#web/shelf/section-title-text.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { rootDataFrom } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/course-section.ts';

function sectionIdOf(raw: string): number {
  const id = parseId(raw);
  if (id === null) throw data(null, { status: 404 });
  return id;
}

// /shelf/course-section/{id} (spec 1 §2 Course section page): the section's materials as this
// member sees them, with the shelf button of each. Members only; anyone else is forbidden.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const user = requireUser(request, context);
  const sectionId = sectionIdOf(params.sectionId);
  const { site } = context.rc;
  // Without My Shelf on a non-label site, the course details page takes over.
  if (site.whiteLabelId === null && !site.myShelfEnabled) {
    throw redirect(`/course/course_details/${sectionId}`);
  }
  const view = await courseSectionView(context.rc, sectionId, dayIn(context.rc.now, user.timeZone));
  const { section, partner } = view;
  const partnerOrg = section.org.isBookstorePartner || (site.org?.isBookstorePartner ?? false);
  return {
    ...view,
    title: sectionTitle({
      department: section.course.department,
      courseNumber: section.course.number,
      courseCode: section.course.code,
      sectionNumber: section.number,
    }),
    section: {
      id: section.id,
      name: section.name,
      courseName: section.course.name,
      startDate: section.startDate,
      endDate: section.endDate,
      memberId: section.memberId,
      rsCourseId: section.rsCourseId,
    },
    // 'Learn More': the fee, what it includes, the separate price, the deadline and the
    // latest change (issue 19), then the organisation's help page, else the store's page about
    // inclusive access (issue 38).
    optingFacts: view.opting ? await optingFacts(context.rc, sectionId) : null,
    learnMoreUrl: section.org.helpUrl ?? '/inclusive-access',
    // The cart preview is hidden for the custom bookstore-partner organisation.
    showCart: !partnerOrg,
    // 'Available to buy/acquire' with Buy Now: the partner organisation's student-choice course.
    partner,
    // Access Classroom for its instructors and its owners (spec 2 §4 Classroom), by the door.
    classrooms: await sectionClassroomEntries(
      context.rc,
      sectionId,
      view.materials.filter((m) => m.productType === 'classroom').map((m) => m.productId),
    ),
  };
});

const AcquireForm = z.object({
  intent: z.literal('acquire'),
  productId: idField,
});

export const action = withDomainErrors(async ({ request, params, context }: Route.ActionArgs) => {
  requireUser(request, context);
  const sectionId = sectionIdOf(params.sectionId);
  const parsed = AcquireForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw data(null, { status: 400 });
  await acquireCourseMaterial(context.rc, sectionId, parsed.data.productId);
  // Acquire Code ends where the code is: the material's panel on My Shelf, which shows it
  // (or Acquire Access Code when the pool was empty) and opens the courseware (issue 38).
  return redirect(`/shelf?material=${parsed.data.productId}#material-panel`);
});

export default function CourseSectionPage() {
  const view = useLoaderData<typeof loader>();
  const t = useT();
  const locale = useLocale();
  const date = (day: string) => formatDay(locale, day);
  const heading = sectionTitleText(t, view.title);
  const available = view.partner.candidates;
  const buyNowLabel = (title: string) =>
    t('shelf.button.of', { action: t('section.buyNow'), title });
  const [openId, setOpenId] = useState<number | null>(null);
  return (
    <div className="stack-lg">
      <p>
        <Link to="/shelf" className="back-link">
          <span aria-hidden="true">←</span> {t('section.back')}
        </Link>
      </p>
      <header className="stack-sm">
        <h1>{heading}</h1>
        <p className="product__subtitle">
          {t('section.subtitle', {
            course: view.section.courseName,
            // A section named like its course is not named twice.
            name: view.section.name === view.section.courseName ? 'none' : view.section.name,
            from: date(view.section.startDate),
            to: date(view.section.endDate),
          })}
        </p>
        <p>
          <RedeemDialog label={t('redeem.haveCode')} />
        </p>
        {view.canViewAnalytics ? (
          <p>
            <Link to={`/courses/analytics/${view.section.id}`} className="button button--secondary">
              {t('section.analytics')}
            </Link>
          </p>
        ) : null}
      </header>
      {view.showCart && view.cart.count > 0 ? (
        <aside className="cart-preview" aria-labelledby="cart-preview">
          <h2 id="cart-preview">{t('cart.title')}</h2>
          <p>
            {t('section.cart', {
              count: view.cart.count,
              subtotal: formatMoney(locale, view.cart.subtotalCents, 'USD'),
            })}
          </p>
          <Link to="/cart/" className="button button--secondary">
            {t('cart.view')}
          </Link>
        </aside>
      ) : null}
      {view.opting && view.optingFacts ? (
        <OptingBanner
          banner={view.opting}
          facts={view.optingFacts}
          course={heading}
          memberId={view.section.memberId}
          learnMoreUrl={view.learnMoreUrl}
          storeUrl={view.partner.storeUrl}
        />
      ) : null}
      {view.checkBackOn ? (
        <p className="empty-state">{t('section.notYet', { date: date(view.checkBackOn) })}</p>
      ) : (
        <>
          {view.partner.buyNow && available.length > 0 ? (
            <section className="stack" aria-labelledby="available-heading">
              <h2 id="available-heading">{t('section.available')}</h2>
              {view.partner.purchaseModal ? (
                <PartnerPurchaseModal
                  rsCourseId={view.section.rsCourseId}
                  course={heading}
                  candidates={available}
                  trigger={(open) => (
                    <ul className="shelf-grid">
                      {available.map((material) => (
                        <li key={material.productId} className="shelf-tile">
                          <p className="pill">{t(`type.${material.productType}`)}</p>
                          <p className="item-tile__title">{material.title}</p>
                          <button
                            type="button"
                            className="button button--primary"
                            aria-label={buyNowLabel(material.title)}
                            onClick={(event) => open(event.currentTarget)}
                          >
                            {t('section.buyNow')}
                          </button>
                        </li>
                      ))}
                    </ul>
                  )}
                />
              ) : (
                <ul className="shelf-grid">
                  {available.map((material) => (
                    <li key={material.productId} className="shelf-tile">
                      <p className="pill">{t(`type.${material.productType}`)}</p>
                      <p className="item-tile__title">{material.title}</p>
                      <Link
                        to={`/product-detail/${material.productId}?ecommerce_course_id=${view.section.id}`}
                        className="button button--primary"
                        aria-label={buyNowLabel(material.title)}
                      >
                        {t('section.buyNow')}
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          ) : null}
          <section className="stack" aria-labelledby="materials-heading">
            <h2 id="materials-heading">{t('section.materials')}</h2>
            {view.materials.length === 0 ? (
              <p className="empty-state">{t('shelf.empty')}</p>
            ) : (
              <ul className="shelf-grid">
                {view.materials.map((material) => (
                  <MaterialTile
                    key={material.productId}
                    productId={material.productId}
                    cover={material.cover}
                    productType={material.productType}
                    inCart={material.inCart}
                    badge={material.includedInFee ? 'courseFee' : null}
                    title={
                      <Link
                        to={`/product-detail/${material.productId}?ecommerce_course_id=${view.section.id}`}
                        aria-haspopup="dialog"
                        onClick={(event) => {
                          // With scripts, the product side sheet opens over the page.
                          event.preventDefault();
                          setOpenId(material.productId);
                        }}
                      >
                        {material.title}
                      </Link>
                    }
                    subline={material.publisher}
                    action={
                      view.classrooms[material.productId] ? (
                        <ShelfActionButton
                          action="accessClassroom"
                          productId={material.productId}
                          title={material.title}
                          sectionId={view.section.id}
                          classroomView={
                            view.classrooms[material.productId] === 'instructor'
                              ? 'instructor'
                              : 'student'
                          }
                        />
                      ) : material.action ? (
                        <ShelfActionButton
                          action={material.action}
                          productId={material.productId}
                          title={material.title}
                          // A classroom whose door here is shut (its code is another
                          // section's) opens from the shelf panel, which knows its section.
                          sectionId={material.action === 'accessClassroom' ? null : view.section.id}
                          memberId={view.section.memberId}
                          offeringId={material.offeringId}
                          viaCds={material.viaCds}
                          launchable={material.launchable}
                        />
                      ) : material.notice ? (
                        // Why it does not open now (opted out, term ended, no file): issue 14;
                        // and, closed by an opt-out, how to buy or rent it instead (issue 38).
                        <>
                          <p className="tile__notice">
                            {t(material.notice.key, material.notice.params)}
                          </p>
                          {material.buyInstead ? (
                            <Link
                              to={`/product-detail/${material.productId}`}
                              aria-label={t('section.buyInstead.of', { title: material.title })}
                            >
                              {t('section.buyInstead')}
                            </Link>
                          ) : null}
                        </>
                      ) : null
                    }
                  />
                ))}
              </ul>
            )}
          </section>
        </>
      )}
      <ProductSideSheet
        productId={openId}
        onClose={() => setOpenId(null)}
        ecommerceCourseId={view.section.id}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  const root = rootDataFrom(matches);
  if (!loaderData) return [];
  const locale = loadedLocale(root?.locale ?? DEFAULT_LOCALE);
  const text = sectionTitleText(
    (id, params) => translatePage(locale, id, params),
    loaderData.title,
  );
  return [{ title: `${text} | ${root?.site.title ?? 'Shelfmark'}` }];
};
