import { Form } from 'react-router';
import { COURSE_TYPES, courseTypeLabel } from '#domain/courses/section-rules.ts';
import { useT } from '#web/i18n/use-t.ts';

type Choice = { id: number; title: string };

export type DashboardFiltersProps = {
  /** 'dashboard' filters sections; 'insights' chooses only the organisation and term. */
  layout: 'dashboard' | 'insights';
  orgs: readonly Choice[];
  orgId: number | null;
  /** More than one organisation to choose from: a manager's store-wide view. */
  choosesOrg: boolean;
  terms: readonly Choice[];
  termId: number | null;
  departments: readonly string[];
  department: string | null;
  courseType: string | null;
};

/** Issue 39: the term dashboards' filters, a GET form, so the URL can be shared. */
export function DashboardFilters(props: DashboardFiltersProps) {
  const t = useT();
  return (
    <Form
      method="get"
      className="dashboard-filters cluster"
      aria-label={t('ops.dashboard.filters')}
    >
      {props.choosesOrg ? (
        <div className="field">
          <label htmlFor="dashboard-org">{t('ops.dashboard.filter.org')}</label>
          <select id="dashboard-org" name="org" defaultValue={props.orgId ?? ''}>
            {props.orgs.map((org) => (
              <option key={org.id} value={org.id}>
                {org.title}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {props.terms.length > 0 ? (
        <div className="field">
          <label htmlFor="dashboard-term">{t('ops.dashboard.filter.term')}</label>
          <select id="dashboard-term" name="term" defaultValue={props.termId ?? ''}>
            {props.terms.map((term) => (
              <option key={term.id} value={term.id}>
                {term.title}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {props.layout === 'dashboard' ? (
        <>
          <div className="field">
            <label htmlFor="dashboard-department">{t('ops.dashboard.filter.department')}</label>
            <select
              id="dashboard-department"
              name="department"
              defaultValue={props.department ?? ''}
            >
              <option value="">{t('ops.dashboard.filter.all')}</option>
              {props.departments.map((department) => (
                <option key={department} value={department}>
                  {department}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="dashboard-course-type">{t('ops.dashboard.filter.courseType')}</label>
            <select
              id="dashboard-course-type"
              name="courseType"
              defaultValue={props.courseType ?? ''}
            >
              <option value="">{t('ops.dashboard.filter.all')}</option>
              {COURSE_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(courseTypeLabel(type))}
                </option>
              ))}
            </select>
          </div>
        </>
      ) : null}
      <p className="dashboard-filters__submit">
        <button type="submit" className="button button--secondary">
          {t('ops.dashboard.filter.apply')}
        </button>
      </p>
    </Form>
  );
}
