import { Link, useLoaderData } from 'react-router';
import { isFreeOffering, offeringNameWords } from '#domain/catalog/offering-terms.ts';
import { courseFinderSection, type FinderMaterial } from '#domain/courses/course-finder.ts';
import { canManageSection } from '#domain/courses/section-access.ts';
import { formatDay } from '#i18n/format-day.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { useContentLang } from '#web/i18n/content-lang.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { publicPage } from '#web/utils/public-page.server.ts';
import type { Route } from './+types/find-section.ts';
import { FindBreadcrumb } from './find-breadcrumb.tsx';
import { courseCode } from './find-labels.ts';
import { FINDER_PATH } from './find-path.ts';

// /courses/find/sections/{id} (issue 19): what a section adopted, required then optional, with
// each material's offerings and prices and a link to its product page. Public, like a campus
// bookstore's course lookup; it shows nothing of the section's members (the service reads none).
export const loader = withDomainErrors(async ({ params, context }: Route.LoaderArgs) => {
  const view = await courseFinderSection(context.rc, params.sectionId);
  // Issue 20: the section's bookstore (or a manager) finds its places here; never stored.
  const managesSection = canManageSection(context.rc.user, view.chosen.school.id);
  // Stored for anonymous visitors until one of these products (or their offerings) changes.
  if (!managesSection)
    publicPage(context, [
      ...view.materials.map((m) => m.productId),
      ...view.materials.flatMap((m) => (m.alternative ? [m.alternative.productId] : [])),
    ]);
  return { ...view, managesSection };
});

export default function FindSectionPage() {
  const { chosen, section, materials, managesSection, courseFeeCents } =
    useLoaderData<typeof loader>();
  const t = useT();
  const locale = useLocale();
  const date = (day: string) => formatDay(locale, day);
  const code = courseCode(chosen.course);
  const heading = section.number
    ? t('section.title', { course: code, number: section.number })
    : code;
  const required = materials.filter((m) => m.isRequired);
  const optional = materials.filter((m) => !m.isRequired);
  return (
    <div className="stack-lg">
      <header className="stack-sm">
        <FindBreadcrumb
          chosen={chosen}
          current={section.number ? t('section.number', { number: section.number }) : code}
        />
        <h1>{heading}</h1>
        <p className="product__subtitle">
          {chosen.course.name} ·{' '}
          {t('courseFinder.sectionDates', {
            from: date(section.startDate),
            to: date(section.endDate),
          })}
        </p>
        {managesSection ? (
          <p>
            <Link to={`/manage/sections/${section.id}/places`}>{t('places.manageLink')}</Link>
          </p>
        ) : null}
      </header>
      {courseFeeCents !== null && materials.some((m) => m.includedInFee) ? (
        // What the course fee covers, said once here as on the course page and in the opting
        // dialog (courseFeeCovers, issue 38): optional says the instructor's wish, not the fee.
        <p>
          {t('courseFinder.courseFee', { fee: formatMoney(locale, courseFeeCents, 'USD') })}{' '}
          <Link to="/inclusive-access">{t('inclusiveAccess.learnMore')}</Link>
        </p>
      ) : null}
      {materials.length === 0 ? <p>{t('courseFinder.noMaterials')}</p> : null}
      {required.length > 0 ? (
        <MaterialGroup
          id="required-materials"
          title={t('courseFinder.required')}
          items={required}
        />
      ) : null}
      {optional.length > 0 ? (
        <MaterialGroup
          id="optional-materials"
          title={t('courseFinder.optional')}
          items={optional}
        />
      ) : null}
      <p>
        <Link to={FINDER_PATH}>{t('courseFinder.another')}</Link>
      </p>
    </div>
  );
}

function MaterialGroup({
  id,
  title,
  items,
}: {
  id: string;
  title: string;
  items: FinderMaterial[];
}) {
  return (
    <section className="stack" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul className="finder-materials">
        {items.map((material) => (
          <li key={material.productId}>
            <Material material={material} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function Material({ material }: { material: FinderMaterial }) {
  const t = useT();
  const locale = useLocale();
  const langOf = useContentLang();
  const lang = langOf(material.languageCode);
  return (
    <article className="finder-material stack-sm">
      <p className="pill">{t(`type.${material.productType}`)}</p>
      {material.includedInFee ? (
        <p>
          <span className="badge">{t('courseFinder.includedInFee')}</span>
        </p>
      ) : null}
      <h3>
        <Link to={material.path} {...lang}>
          {material.title}
        </Link>
      </h3>
      {material.subtitle && material.subtitle !== 'None' ? (
        <p {...lang}>{material.subtitle}</p>
      ) : null}
      {material.authors ? <p>{material.authors}</p> : null}
      {material.offerings.length === 0 ? (
        <p>{t('availability.offering')}</p>
      ) : (
        <ul
          className="finder-offerings"
          aria-label={t('courseFinder.offerings', { title: material.title })}
        >
          {material.offerings.map((offering) => (
            <li key={offering.id}>
              {t('label.value', {
                label: offeringNameWords(t, { ...offering, productType: material.productType }),
                value: isFreeOffering(offering.priceCents)
                  ? t('offering.free')
                  : formatMoney(locale, offering.priceCents, offering.currencyCode),
              })}
            </li>
          ))}
        </ul>
      )}
      {material.alternative ? (
        <p>
          {t('courseFinder.alternative')}{' '}
          <Link to={material.alternative.path}>{material.alternative.title}</Link>
        </p>
      ) : null}
    </article>
  );
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) =>
  loaderData
    ? pageMeta(matches, 'courseFinder.section.title', {
        course: courseCode(loaderData.chosen.course),
      })
    : [];
