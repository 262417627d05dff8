import { Form } from 'react-router';
import { useT } from '#web/i18n/use-t.ts';
import { SelectField } from './select-field.tsx';

/** Issue 39: a manager's list of terms or courses, shown for one organisation or all. */
export function OrganisationFilter({
  orgs,
  orgFilter,
}: {
  orgs: readonly { id: number; title: string }[];
  orgFilter: number | null;
}) {
  const t = useT();
  return (
    <Form method="get" className="cluster">
      <SelectField
        name="org"
        label={t('ops.courses.field.organisation')}
        defaultValue={orgFilter === null ? '' : String(orgFilter)}
        options={[
          { value: '', label: t('ops.courses.allOrganisations') },
          ...orgs.map((o) => ({ value: String(o.id), label: o.title })),
        ]}
      />
      <button type="submit" className="button button--secondary">
        {t('ops.courses.filter')}
      </button>
    </Form>
  );
}
