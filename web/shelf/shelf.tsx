import * as Dialog from '@radix-ui/react-dialog';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import {
  data,
  Form,
  Link,
  redirect,
  useActionData,
  useLoaderData,
  useNavigate,
  useSearchParams,
} from 'react-router';
import { z } from 'zod';
import { classroomAccessFor, confirmSectionCode } from '#domain/access/classroom.ts';
import { editionWording } from '#domain/catalog/edition.ts';
import { pageNumber, shownRange } from '#domain/catalog/pagination.ts';
import { DETAILS_DESCRIPTION_WORDS, truncateWords } from '#domain/catalog/truncate-words.ts';
import { shownDrmPercent } from '#domain/reading/drm.ts';
import { Invalid, NotFound } from '#domain/shared/errors.ts';
import { parseId } from '#domain/shared/id.ts';
import {
  enrolledSections,
  lostAccess,
  shelfMaterialDetails,
  shelfMaterials,
} from '#domain/shelf/my-shelf.ts';
import {
  dayIn,
  sectionsFor,
  sectionTitle,
  selectableSections,
  TERM_FILTERS,
  termFilterOf,
} from '#domain/shelf/sections.ts';
import {
  SHELF_SORTS,
  SHELF_TYPES,
  type ShelfSort,
  type ShelfType,
} from '#domain/shelf/shelf-filters.ts';
import { AccessCodePanel } from '#web/access/access-code-panel.tsx';
import { coursewareLaunchProps } from '#web/access/courseware-launch.server.ts';
import { CoursewareLaunch } from '#web/access/courseware-launch.tsx';
import { RedeemDialog } from '#web/access/redeem-dialog.tsx';
import { CoverPicture } from '#web/catalog/cover-picture.tsx';
import { CartSideSheet } from '#web/components/cart-side-sheet.tsx';
import { DetailsTable } from '#web/components/details-table.tsx';
import { MaterialTile } from '#web/components/material-tile.tsx';
import { Pagination } from '#web/components/pagination.tsx';
import { ProductSideSheet } from '#web/components/product-side-sheet.tsx';
import { ShelfActionButton } from '#web/components/shelf-action.tsx';
import { idField } from '#web/forms/fields.ts';
import { useContentLang } from '#web/i18n/content-lang.ts';
import { useT } from '#web/i18n/use-t.ts';
import { WordingText } from '#web/i18n/wording-text.tsx';
import { sectionTitleText } from '#web/shelf/section-title-text.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { languageName } from '#web/utils/language-name.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/shelf.ts';

/** Course-launch error codes that show the course-select link (spec 2 §8). */
const COURSE_SELECT_CODES = new Set(['1', '5']);

// /shelf (spec 1 §2 Shelf, spec 2 §2): the user's courses by term, and the materials they own,
// filtered by type and sorted, 100 a page; a material's details in a panel beside the list.
export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  const user = requireUser(request, context);
  const { site } = context.rc;
  // On a white-label site without the My Shelf feature, the library link takes over.
  if (site.whiteLabelId !== null && !site.myShelfEnabled) throw redirect(site.links.library);
  const url = new URL(request.url);
  const query = url.searchParams;
  const term = termFilterOf(query.get('term'));
  const types = [...new Set(query.getAll('type'))].filter((type): type is ShelfType =>
    SHELF_TYPES.includes(type as ShelfType),
  );
  const sortParam = query.get('sort');
  const sort: ShelfSort = SHELF_SORTS.includes(sortParam as ShelfSort)
    ? (sortParam as ShelfSort)
    : 'default';
  const page = Math.min(pageNumber(query.get('page')), 1_000_000);
  const today = dayIn(context.rc.now, user.timeZone);
  const sections = await enrolledSections(context.rc);
  const shelf = await shelfMaterials(context.rc, { types, sort, page });
  const materialId = parseId(query.get('material'));
  let material = null;
  if (materialId !== null) {
    try {
      material = await shelfMaterialDetails(context.rc, materialId);
    } catch (error) {
      // A material the user does not own simply shows no panel.
      if (!(error instanceof NotFound)) throw error;
    }
  }
  const card = (section: (typeof sections)[number]) => ({
    id: section.id,
    name: section.name,
    title: sectionTitle({
      department: section.course.department,
      courseNumber: section.course.number,
      courseCode: section.course.code,
      sectionNumber: section.number,
    }),
    courseName: section.course.name,
    startDate: section.startDate,
    endDate: section.endDate,
  });
  const errorCode = query.get('error_code');
  return {
    // What left the shelf, and the way back (issue 14).
    lost: await lostAccess(context.rc, sections, today),
    term,
    types,
    sort,
    sections: sectionsFor(sections, term, today).map(card),
    selectable: selectableSections(sections, today).map(card),
    shelf: {
      ...shelf,
      tiles: shelf.tiles.map((tile) => ({
        ...tile,
        expiresAt: tile.expiresAt?.toISOString() ?? null,
      })),
    },
    material: material && {
      ...material,
      // Named on the server, not by Intl.DisplayNames in the page's hydration (product.tsx).
      languageName: languageName(context.rc.locale, material.languageCode),
      description: truncateWords(material.description, DETAILS_DESCRIPTION_WORDS),
      expiresAt: material.expiresAt?.toISOString() ?? null,
    },
    errorCode: errorCode && /^\d{1,3}$/.test(errorCode) ? errorCode : null,
    // spec 1 §2: 'Redeem {product} Access Code', or 'Have an access code?' on the retailer label.
    retailerLabel: site.whiteLabelId !== null && (site.org?.isRetailer ?? false),
    siteTitle: site.title,
    classroom:
      material?.productType === 'classroom'
        ? await classroomAccessFor(context.rc, material.productId)
        : null,
    // A classroom tile's Access Classroom goes straight in once its code is confirmed (the
    // panel holds the prompt until then; issue 14, spec 2 §4 Classroom).
    classroomDoors: await classroomTileDoors(context.rc, shelf.tiles),
    // Owned courseware with a registered tool launches (issue 14, spec 1 §4 Courseware launch).
    coursewareLaunch:
      material?.productType === 'courseware'
        ? await coursewareLaunchProps(context, request, material.productId)
        : null,
  };
});

const SectionCodeForm = z.object({
  intent: z.literal('section-code'),
  productId: idField,
  code: z.string().max(100),
});

// The classroom redeem prompt posts here (spec 1 §4): a wrong code is said under the field.
export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  requireUser(request, context);
  const parsed = SectionCodeForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ sectionCodeError: 'error.invalid' }, { status: 400 });
  try {
    await confirmSectionCode(context.rc, {
      productId: parsed.data.productId,
      code: parsed.data.code,
    });
  } catch (error) {
    if (error instanceof Invalid) {
      return data({ sectionCodeError: error.messageKey }, { status: 400 });
    }
    throw error;
  }
  return redirect(`/shelf?material=${parsed.data.productId}`);
});

type LoaderData = Awaited<ReturnType<typeof loader>>;

/** Where each classroom tile's Access Classroom leads: its section, with the right view. */
async function classroomTileDoors(
  rc: Route.LoaderArgs['context']['rc'],
  tiles: readonly { productId: number; action: string | null }[],
) {
  const doors: Record<number, { sectionId: number; classroomView: 'instructor' | 'student' }> = {};
  for (const tile of tiles) {
    if (tile.action !== 'accessClassroom') continue;
    const access = await classroomAccessFor(rc, tile.productId);
    if (access.canEnter && access.sectionId !== null) {
      doors[tile.productId] = {
        sectionId: access.sectionId,
        classroomView: access.asInstructor ? 'instructor' : 'student',
      };
    }
  }
  return doors;
}

export default function ShelfPage() {
  const data = useLoaderData<typeof loader>();
  const t = useT();
  const langOf = useContentLang();
  const [params] = useSearchParams();
  const { shelf } = data;
  const [cartOpen, setCartOpen] = useState(false);
  const range = shownRange(shelf.page, shelf.count);
  const withParams = (changes: Record<string, string | string[] | null>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      next.delete(name);
      if (Array.isArray(value)) for (const v of value) next.append(name, v);
      else if (value !== null) next.set(name, value);
    }
    const search = next.toString();
    return search ? `/shelf?${search}` : '/shelf';
  };
  const toggled = (type: ShelfType) =>
    data.types.includes(type) ? data.types.filter((t) => t !== type) : [...data.types, type];
  return (
    <div className="stack-lg shelf">
      <div className="shelf__bar">
        <h1>{t('shelf.title')}</h1>
        <RedeemDialog
          label={
            data.retailerLabel
              ? t('redeem.haveCode')
              : t('redeem.button', { product: data.siteTitle })
          }
        />
      </div>
      {data.lost.length > 0 ? (
        <section className="stack-sm" aria-labelledby="lost-access">
          <h2 id="lost-access">{t('shelf.lost.heading')}</h2>
          <ul className="stack-sm">
            {data.lost.map((lost) =>
              lost.kind === 'optedOut' ? (
                <li key={`section-${lost.sectionId}`} className="alert">
                  {lost.deadline
                    ? t('shelf.lost.optedOut', { course: lost.course, deadline: lost.deadline })
                    : t('shelf.lost.optedOutClosed', { course: lost.course })}{' '}
                  <Link to={`/shelf/course-section/${lost.sectionId}`}>
                    {t(lost.deadline ? 'access.wayBack.optBackIn' : 'shelf.lost.toCourse')}
                  </Link>
                </li>
              ) : lost.kind === 'refunded' ? (
                <li key={`refund-${lost.orderId}-${lost.productId}`} className="alert">
                  {t('ops.refunds.shelf.refunded', { title: lost.title, date: lost.date })}{' '}
                  <Link to={`/account/orders/${lost.orderId}`}>
                    {t('ops.refunds.shelf.receipt')}
                  </Link>
                </li>
              ) : (
                <li key={`product-${lost.productId}`} className="alert">
                  {t('shelf.lost.ended', { title: lost.title, date: lost.date })}{' '}
                  <Link to={`/product-detail/${lost.productId}`}>{t('access.wayBack.buy')}</Link>
                </li>
              ),
            )}
          </ul>
        </section>
      ) : null}
      <section className="stack" aria-labelledby="your-courses">
        <div className="shelf__bar">
          <h2 id="your-courses">{t('shelf.courses')}</h2>
          <nav aria-label={t('shelf.term.label')} className="chips">
            {TERM_FILTERS.map((term) => (
              <Link
                key={term}
                to={withParams({ term: term === 'current' ? null : term, page: null })}
                className="chip"
                aria-current={data.term === term ? 'true' : undefined}
              >
                {t(`shelf.term.${term}`)}
              </Link>
            ))}
          </nav>
        </div>
        {data.sections.length === 0 ? (
          <p>{t('shelf.courses.none')}</p>
        ) : (
          <ul className="course-tray">
            {data.sections.map((section) => (
              <li key={section.id} className="course-card">
                <Link to={`/shelf/course-section/${section.id}`} className="course-card__link">
                  <span className="course-card__title">{section.title.course}</span>
                  <span>{section.courseName}</span>
                  {section.title.section ? (
                    <span className="form-hint">
                      {t('section.number', { number: section.title.section })}
                    </span>
                  ) : null}
                </Link>
              </li>
            ))}
          </ul>
        )}
        <p>
          <Link to="/courses/find">{t('courseFinder.link')}</Link>
        </p>
      </section>
      <section className="stack" aria-labelledby="materials-heading">
        <div className="shelf__bar">
          <h2 id="materials-heading">{t('shelf.materials')}</h2>
          <Form method="get" className="shelf__tools">
            {data.term !== 'current' ? <input type="hidden" name="term" value={data.term} /> : null}
            <details className="shelf-menu">
              <summary className="button button--secondary">{t('shelf.filter')}</summary>
              <fieldset className="shelf-menu__panel stack-sm">
                <legend>{t('shelf.filter.types')}</legend>
                {SHELF_TYPES.map((type) => (
                  <label key={type} className="check">
                    <input
                      type="checkbox"
                      name="type"
                      value={type}
                      defaultChecked={data.types.includes(type)}
                    />
                    {t(`shelf.type.${type}`)}
                  </label>
                ))}
                <button type="submit" className="button button--primary">
                  {t('shelf.apply')}
                </button>
              </fieldset>
            </details>
            {data.sort !== 'default' ? <input type="hidden" name="sort" value={data.sort} /> : null}
          </Form>
          <SortMenu sort={data.sort} types={data.types} term={data.term} />
          <button
            type="button"
            className="button button--secondary"
            aria-haspopup="dialog"
            onClick={() => setCartOpen(true)}
          >
            {t('cart.title')}
          </button>
        </div>
        {data.types.length > 0 ? (
          <ul className="chips" aria-label={t('shelf.filter.active')}>
            {data.types.map((type) => (
              <li key={type}>
                <Link
                  to={withParams({ type: toggled(type), page: null })}
                  className="chip chip--on"
                  aria-label={t('shelf.filter.remove', { type: t(`shelf.type.${type}`) })}
                >
                  {t(`shelf.type.${type}`)} <span aria-hidden="true">×</span>
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
        {shelf.count === 0 ? (
          <p className="empty-state">{t('shelf.empty')}</p>
        ) : (
          <>
            <p className="form-hint" aria-live="polite">
              {t('shelf.range', { from: range.from, to: range.to, count: shelf.count })}
            </p>
            <div className="shelf__layout">
              <ul className="shelf-grid">
                {shelf.tiles.map((tile) => (
                  <MaterialTile
                    key={tile.productId}
                    productId={tile.productId}
                    cover={tile.cover}
                    productType={tile.productType}
                    badge={tile.accessBadge}
                    inCart={tile.inCart}
                    title={
                      <Link
                        to={withParams({ material: String(tile.productId) })}
                        {...langOf(tile.languageCode)}
                      >
                        {tile.title}
                      </Link>
                    }
                    subline={
                      tile.sectionNumber
                        ? t('section.number', { number: tile.sectionNumber })
                        : tile.publisher
                    }
                    action={
                      tile.action ? (
                        <ShelfActionButton
                          action={tile.action}
                          productId={tile.productId}
                          title={tile.title}
                          {...data.classroomDoors[tile.productId]}
                        />
                      ) : null
                    }
                  />
                ))}
              </ul>
              {data.material ? (
                <MaterialPanel
                  material={data.material}
                  classroom={data.classroom}
                  coursewareLaunch={data.coursewareLaunch}
                  closeTo={withParams({ material: null })}
                />
              ) : null}
            </div>
            <Pagination
              page={shelf.page}
              pages={shelf.pages}
              href={(page) => withParams({ page: page === 1 ? null : String(page) })}
            />
          </>
        )}
      </section>
      <ErrorCodeModal code={data.errorCode} selectable={data.selectable} />
      <CartSideSheet open={cartOpen} onClose={() => setCartOpen(false)} />
    </div>
  );
}

function SortMenu({ sort, types, term }: { sort: ShelfSort; types: string[]; term: string }) {
  const t = useT();
  const navigate = useNavigate();
  const id = useId();
  return (
    <Form method="get" id="shelf-sort" className="shelf__tools">
      {term !== 'current' ? <input type="hidden" name="term" value={term} /> : null}
      {types.map((type) => (
        <input key={type} type="hidden" name="type" value={type} />
      ))}
      <label htmlFor={id}>{t('shelf.sort')}</label>
      <select
        id={id}
        name="sort"
        defaultValue={sort}
        onChange={(event) => {
          const next = new URLSearchParams();
          if (term !== 'current') next.set('term', term);
          for (const type of types) next.append('type', type);
          if (event.target.value !== 'default') next.set('sort', event.target.value);
          const search = next.toString();
          navigate(search ? `/shelf?${search}` : '/shelf');
        }}
      >
        {SHELF_SORTS.map((value) => (
          <option key={value} value={value}>
            {t(`shelf.sort.${value}`)}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="button button--secondary">
          {t('shelf.apply')}
        </button>
      </noscript>
    </Form>
  );
}

/** The material panel's id: /shelf?material={id}#material-panel opens it in view. */
const PANEL_ID = 'material-panel';

function MaterialPanel({
  material,
  classroom,
  coursewareLaunch,
  closeTo,
}: {
  material: NonNullable<LoaderData['material']>;
  classroom: LoaderData['classroom'];
  coursewareLaunch: LoaderData['coursewareLaunch'];
  closeTo: string;
}) {
  const t = useT();
  // The material's own words are in its language (issue 13).
  const own = useContentLang()(material.languageCode);
  const edition = editionWording(material);
  const editionCell = edition ? (
    <WordingText wording={edition} language={material.languageCode} />
  ) : null;
  const [sheetOpen, setSheetOpen] = useState(false);
  // Where Acquire Code ends (issue 38): the panel, in view and focused, with its code.
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    if (window.location.hash !== `#${PANEL_ID}`) return;
    panel.current?.scrollIntoView({ block: 'start' });
    panel.current?.focus({ preventScroll: true });
  }, []);
  // spec 1 §5, spec 2 §9: shown only above 0, rounded (one rule with the reader's).
  const drm: [string, number][] = [];
  for (const [key, value] of [
    ['shelf.drm.offline', material.drm.offline],
    ['shelf.drm.copy', material.drm.copy],
    ['shelf.drm.print', material.drm.print],
  ] as const) {
    const shown = shownDrmPercent(value);
    if (shown !== null) drm.push([key, shown]);
  }
  const details: [string, ReactNode][] = [
    [t('product.soldBy'), material.publisher],
    [t('product.isbns'), material.isbns.join(', ') || null],
    [t('shelf.info.supplierItemId'), material.supplierItemId],
    [t('product.language'), material.languageName],
    [t('product.numPages'), material.numPages],
    [t('product.edition'), editionCell],
    [t('shelf.info.fileType'), material.fileType],
    [t('shelf.info.classroomIsbn'), material.classroomIsbn],
  ];
  return (
    <aside
      ref={panel}
      id={PANEL_ID}
      tabIndex={-1}
      className="shelf-panel stack"
      aria-labelledby="material-title"
    >
      <div className="shelf-panel__header">
        <p className="pill">{t(`type.${material.productType}`)}</p>
        <Link to={closeTo} className="button button--ghost" aria-label={t('shelf.panel.close')}>
          {t('sheet.close')}
        </Link>
      </div>
      {material.daysLeft !== null ? (
        <p className="shelf-banner">{t('shelf.panel.daysLeft', { days: material.daysLeft })}</p>
      ) : null}
      {material.inCart ? <p className="shelf-banner">{t('shelf.panel.inCart')}</p> : null}
      <CoverPicture productId={material.productId} version={material.cover} width={160} alt="" />
      {material.productType === 'classroom' && material.sectionNumber ? (
        <p>{t('section.number', { number: material.sectionNumber })}</p>
      ) : null}
      <h3 id="material-title" {...own}>
        {material.title}
      </h3>
      {material.subtitle ? (
        <p className="product__subtitle" {...own}>
          {material.subtitle}
        </p>
      ) : null}
      {material.authors ? <p>{t('card.byAuthor', { author: material.authors })}</p> : null}
      {material.description ? (
        <p className="prose" {...own}>
          {material.description}
        </p>
      ) : (
        <p className="prose">{t('shelf.panel.noDescription')}</p>
      )}
      <p>
        <button
          type="button"
          className="button button--secondary"
          aria-haspopup="dialog"
          onClick={() => setSheetOpen(true)}
        >
          {t('sheet.title')}
        </button>
      </p>
      <ProductSideSheet
        productId={sheetOpen ? material.productId : null}
        onClose={() => setSheetOpen(false)}
      />
      <h4>{t('shelf.panel.info')}</h4>
      <DetailsTable rows={details} />
      {classroom ? <ClassroomPanel productId={material.productId} access={classroom} /> : null}
      {coursewareLaunch ? <CoursewareLaunch {...coursewareLaunch} title={material.title} /> : null}
      {material.productType === 'courseware' ? (
        material.isCodeless ? (
          coursewareLaunch ? null : material.accessUrl ? (
            <a
              className="button button--primary"
              href={material.accessUrl}
              target="_blank"
              rel="noopener noreferrer"
            >
              {t('shelf.button.accessCourseware')}
            </a>
          ) : (
            <p className="alert alert--error">{t('access.error.codeless')}</p>
          )
        ) : (
          <AccessCodePanel productId={material.productId} />
        )
      ) : null}
      {drm.length > 0 ? (
        <>
          <h4>{t('shelf.panel.drm')}</h4>
          <DetailsTable rows={drm.map(([key, value]) => [t(key), `${value}%`])} />
        </>
      ) : null}
    </aside>
  );
}

/** The classroom redeem prompt and the way in (spec 1 §4 Classroom redeem prompt). */
function ClassroomPanel({
  productId,
  access,
}: {
  productId: number;
  access: NonNullable<LoaderData['classroom']>;
}) {
  const t = useT();
  const result = useActionData<{ sectionCodeError?: string }>();
  const csrfToken = useCsrfToken();
  const errorId = `section-code-error-${productId}`;
  return (
    <section className="stack-sm" aria-labelledby={`classroom-${productId}`}>
      <h4 id={`classroom-${productId}`}>{t('classroom.title')}</h4>
      {access.canEnter ? (
        <a
          className="button button--primary"
          href={`/classroom/${productId}/section/${access.sectionId}?type=${access.asInstructor ? 'instructor' : 'student'}`}
        >
          {t('shelf.button.accessClassroom')}
        </a>
      ) : null}
      {access.promptForCode ? (
        <Form method="post" className="stack-sm">
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
          <input type="hidden" name="intent" value="section-code" />
          <input type="hidden" name="productId" value={productId} />
          <p>{t('classroom.prompt')}</p>
          <div className="field">
            <label htmlFor={`section-code-${productId}`}>{t('classroom.code')}</label>
            <input
              id={`section-code-${productId}`}
              name="code"
              required
              maxLength={100}
              autoComplete="off"
              aria-invalid={result?.sectionCodeError ? true : undefined}
              aria-describedby={result?.sectionCodeError ? errorId : undefined}
            />
            {result?.sectionCodeError ? (
              <p className="field__error" id={errorId}>
                {t(result.sectionCodeError)}
              </p>
            ) : null}
          </div>
          <button type="submit" className="button button--primary" disabled={!csrfToken}>
            {t('classroom.confirm')}
          </button>
        </Form>
      ) : null}
    </section>
  );
}

/**
 * The error_code modal (spec 1 §2 Shelf; spec 2 §8): course-select codes (1 and 5) open
 * 'Choose Your Course' when the user has sections; any other code says what went wrong.
 */
function ErrorCodeModal({
  code,
  selectable,
}: {
  code: string | null;
  selectable: LoaderData['selectable'];
}) {
  const t = useT();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState(false);
  const close = () => navigate('/shelf', { replace: true });
  if (code === null) return null;
  if (COURSE_SELECT_CODES.has(code) && selectable.length > 0) {
    return (
      <Dialog.Root open onOpenChange={(open) => !open && close()}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog__overlay" />
          <Dialog.Content className="dialog" aria-describedby={undefined}>
            <Dialog.Title className="dialog__title">{t('shelf.chooseCourse.title')}</Dialog.Title>
            <div className="field">
              <label htmlFor="choose-course">{t('shelf.chooseCourse.label')}</label>
              <select
                id="choose-course"
                value={chosen}
                aria-invalid={error || undefined}
                aria-describedby={error ? 'choose-course-error' : undefined}
                onFocus={() => setError(false)}
                onChange={(event) => setChosen(event.target.value)}
              >
                <option value="">{t('shelf.chooseCourse.placeholder')}</option>
                {selectable.map((section) => (
                  <option key={section.id} value={section.id}>
                    {sectionTitleText(t, section.title)} · {section.name}
                  </option>
                ))}
              </select>
              {error ? (
                <p className="field__error" id="choose-course-error">
                  {t('shelf.chooseCourse.required')}
                </p>
              ) : null}
            </div>
            <div className="button-row">
              <button type="button" className="button" onClick={close}>
                {t('shelf.chooseCourse.shelf')}
              </button>
              <button
                type="button"
                className="button button--primary"
                onClick={() => {
                  if (!chosen) setError(true);
                  else navigate(`/shelf/course-section/${chosen}`);
                }}
              >
                {t('shelf.chooseCourse.launch')}
              </button>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    );
  }
  const message = ['1', '2', '3', '4', '5'].includes(code)
    ? `shelf.errorCode.${code}`
    : 'shelf.errorCode.default';
  return (
    <Dialog.Root open onOpenChange={(open) => !open && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title className="dialog__title">{t('errorModal.title')}</Dialog.Title>
          <Dialog.Description>{t(message)}</Dialog.Description>
          <div className="button-row">
            <Dialog.Close className="button button--primary">{t('sheet.close')}</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'shelf.title');
