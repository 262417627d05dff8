import { useEffect, useRef } from 'react';
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router';
import { z } from 'zod';
import { academicTermOf } from '#domain/courses/academic-term.ts';
import { MAX_PLACE_ADDRESSES, PLACE_ROLES } from '#domain/courses/place-addresses.ts';
import {
  type AddPlacesOutcome,
  addSectionPlaces,
  removeSectionPlace,
  sectionPlaces,
} from '#domain/courses/section-places.ts';
import { parseId } from '#domain/shared/id.ts';
import { sectionTitle } from '#domain/shelf/sections.ts';
import { translate } from '#i18n/translate.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { termLabel } from '#web/courses/find-labels.ts';
import { idField } from '#web/forms/fields.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { sectionTitleText } from '#web/shelf/section-title-text.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/section-places.ts';

// One address is at most 254 characters: the cap's worth of them, with separators, and room.
const MAX_TEXT = MAX_PLACE_ADDRESSES * 260;

const PlacesForm = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('add'),
    addresses: z.string().max(MAX_TEXT, 'places.error.tooLong'),
    role: z.enum(PLACE_ROLES, { error: 'places.error.role' }),
  }),
  z.object({ intent: z.literal('remove'), placeId: idField }),
]);

type ActionResult =
  | { kind: 'added'; added: number; kept: number; already: number }
  | { kind: 'removed'; email: string }
  | {
      kind: 'error';
      message: string;
      params?: Record<string, number>;
      invalid?: string[];
      text?: string;
      role?: string;
    };

function sectionIdOf(raw: string): number {
  const id = parseId(raw);
  if (id === null) throw data(null, { status: 404 });
  return id;
}

/** A refused submission, said in the page's words; the text comes back to be corrected. */
function refusal(
  outcome: Exclude<AddPlacesOutcome, { ok: true }>,
  text: string,
): Extract<ActionResult, { kind: 'error' }> {
  if (outcome.problem === 'invalid') {
    return {
      kind: 'error',
      message: 'places.error.invalid',
      params: { count: outcome.invalid.length },
      invalid: outcome.invalid,
      text,
    };
  }
  if (outcome.problem === 'tooMany') {
    return {
      kind: 'error',
      message: 'places.error.tooMany',
      params: { count: outcome.count, max: outcome.max },
      text,
    };
  }
  return { kind: 'error', message: 'places.error.empty', text };
}

// /manage/sections/{id}/places (issue 20): a bookstore manager of the section's organisation,
// or a manager, puts students in the section by e-mail (section-places.ts) and sees the places
// kept, taken or not. Anyone else: the forbidden page; an unknown or malformed id: not found.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const user = requireUser(request, context);
  const view = await sectionPlaces(context.rc, sectionIdOf(params.sectionId));
  const { section } = view;
  return {
    ...view,
    title: sectionTitleText(
      (id, values) => translate(context.rc.locale, id, values),
      sectionTitle({
        department: section.department,
        courseNumber: section.courseNumber,
        courseCode: section.courseCode,
        sectionNumber: section.number,
      }),
    ),
    places: view.places.map((place) => ({
      ...place,
      keptAt: place.keptAt.toISOString(),
      claimedAt: place.claimedAt?.toISOString() ?? null,
    })),
    timeZone: user.timeZone,
    csrfToken: context.csrfToken,
  };
});

export const action = withDomainErrors(async ({ request, params, context }: Route.ActionArgs) => {
  requireUser(request, context);
  const sectionId = sectionIdOf(params.sectionId);
  const form = Object.fromEntries(await request.formData());
  const parsed = PlacesForm.safeParse(form);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]?.message ?? '';
    const message = issue.startsWith('places.') ? issue : 'error.invalid';
    const text = typeof form.addresses === 'string' ? form.addresses.slice(0, MAX_TEXT) : '';
    return data<ActionResult>(
      { kind: 'error', message, params: { max: MAX_PLACE_ADDRESSES }, text },
      { status: 400 },
    );
  }
  if (parsed.data.intent === 'remove') {
    const outcome = await removeSectionPlace(context.rc, sectionId, parsed.data.placeId);
    if (outcome.ok) return data<ActionResult>({ kind: 'removed', email: outcome.email });
    return data<ActionResult>(
      { kind: 'error', message: `places.error.${outcome.problem}` },
      { status: 409 },
    );
  }
  const outcome = await addSectionPlaces(context.rc, sectionId, {
    text: parsed.data.addresses,
    role: parsed.data.role,
  });
  if (!outcome.ok) {
    return data<ActionResult>(
      { ...refusal(outcome, parsed.data.addresses), role: parsed.data.role },
      { status: 400 },
    );
  }
  const { ok: _ok, ...counts } = outcome;
  return data<ActionResult>({ kind: 'added', ...counts });
});

export default function SectionPlacesPage() {
  const { section, title, places, memberCount, timeZone, csrfToken } =
    useLoaderData<typeof loader>();
  const result = useActionData<ActionResult>();
  const navigation = useNavigation();
  const t = useT();
  const locale = useLocale();
  const notice = useRef<HTMLDivElement>(null);
  const addForm = useRef<HTMLFormElement>(null);
  // After a submission the result (or the refusal) has the focus: the removed row is gone.
  // Addresses that were added leave the field; refused ones stay in it to be corrected.
  useEffect(() => {
    if (result?.kind === 'added') addForm.current?.reset();
    if (result) notice.current?.focus();
  }, [result]);
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone });
  const error = result?.kind === 'error' ? result : null;
  const addressError =
    error && error.message !== 'places.error.gone' && error.message !== 'places.error.claimed';
  const busy = navigation.state === 'submitting';
  return (
    <section className="stack-lg">
      <header className="stack-sm">
        <h1>{t('places.heading', { section: title })}</h1>
        <p className="product__subtitle">
          {[
            ...new Set([section.courseName, section.name]),
            termLabel(t, academicTermOf(section.startDate)),
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
        <p>{t('places.members', { count: memberCount })}</p>
        <p className="cluster">
          <Link to={`/courses/find/sections/${section.id}`}>{t('places.sectionPage')}</Link>
          <a href={`/manage/sections/${section.id}/opt-status.csv`} download>
            {t('places.optStatus')}
          </a>
        </p>
      </header>
      <div ref={notice} tabIndex={-1} className="stack-sm">
        {result?.kind === 'added' ? (
          <output className="alert alert--success stack-sm">
            <span style={{ display: 'block' }}>
              {t('places.result.added', { count: result.added })}
            </span>
            <span style={{ display: 'block' }}>
              {t('places.result.kept', { count: result.kept })}
            </span>
            <span style={{ display: 'block' }}>
              {t('places.result.already', { count: result.already })}
            </span>
          </output>
        ) : null}
        {result?.kind === 'removed' ? (
          <output className="alert alert--success">
            {t('places.removed', { email: result.email })}
          </output>
        ) : null}
        {error ? (
          <div className="alert alert--error" role="alert">
            <p>{t(error.message, error.params)}</p>
            {error.invalid ? (
              <ul>
                {error.invalid.map((address) => (
                  <li key={address}>{t('places.error.invalidAddress', { address })}</li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
      </div>
      <section className="stack" aria-labelledby="places-add">
        <h2 id="places-add">{t('places.add.heading')}</h2>
        <p>{t('places.intro')}</p>
        <Form method="post" className="stack" ref={addForm}>
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
          <input type="hidden" name="intent" value="add" />
          <div className="field">
            <label htmlFor="places-addresses">{t('places.add.addresses')}</label>
            <p className="field__hint" id="places-addresses-hint">
              {t('places.add.hint', { max: MAX_PLACE_ADDRESSES })}
            </p>
            <textarea
              id="places-addresses"
              name="addresses"
              rows={6}
              required
              maxLength={MAX_TEXT}
              autoComplete="off"
              spellCheck={false}
              defaultValue={error?.text ?? ''}
              aria-invalid={addressError ? true : undefined}
              aria-describedby="places-addresses-hint"
            />
          </div>
          <div className="field">
            <label htmlFor="places-role">{t('places.add.role')}</label>
            <select id="places-role" name="role" defaultValue={error?.role ?? 'student'}>
              {PLACE_ROLES.map((role) => (
                <option key={role} value={role}>
                  {t(`places.role.${role}`)}
                </option>
              ))}
            </select>
          </div>
          <p>
            <button type="submit" className="button button--primary" disabled={busy}>
              {t('places.add.submit')}
            </button>
          </p>
        </Form>
      </section>
      <section className="stack" aria-labelledby="places-table">
        <h2 id="places-table">{t('places.table.caption')}</h2>
        {places.length === 0 ? (
          <p>{t('places.none')}</p>
        ) : (
          <TableScroll label={t('places.table.caption')}>
            <table className="analytics-table">
              <caption className="visually-hidden">{t('places.table.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('places.table.address')}</th>
                  <th scope="col">{t('places.table.role')}</th>
                  <th scope="col">{t('places.table.keptOn')}</th>
                  <th scope="col">{t('places.table.status')}</th>
                  <th scope="col">{t('places.table.action')}</th>
                </tr>
              </thead>
              <tbody>
                {places.map((place) => (
                  <tr key={place.id}>
                    <th scope="row">{place.email}</th>
                    <td>{t(`places.role.${place.role}`)}</td>
                    <td>{day.format(new Date(place.keptAt))}</td>
                    <td>
                      {place.claimedAt === null
                        ? t('places.status.kept')
                        : place.claimedBy
                          ? t('places.status.taken', {
                              name:
                                `${place.claimedBy.firstName} ${place.claimedBy.lastName}`.trim() ||
                                place.claimedBy.email,
                              date: day.format(new Date(place.claimedAt)),
                            })
                          : t('places.status.takenGone', {
                              date: day.format(new Date(place.claimedAt)),
                            })}
                    </td>
                    <td>
                      {place.claimedAt === null ? (
                        <Form method="post">
                          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
                          <input type="hidden" name="intent" value="remove" />
                          <input type="hidden" name="placeId" value={place.id} />
                          <button
                            type="submit"
                            className="button button--secondary"
                            aria-label={t('places.removeLabel', { email: place.email })}
                          >
                            {t('places.remove')}
                          </button>
                        </Form>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) =>
  loaderData ? pageMeta(matches, 'places.pageTitle', { section: loaderData.title }) : [];

// A forbidden or unknown section is the site's error page, in the visitor's language.
export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
