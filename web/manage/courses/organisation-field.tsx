import { useT } from '#web/i18n/use-t.ts';
import { SelectField } from './select-field.tsx';

/** Issue 39: the organisation a manager makes a term or a course in (others make it in theirs). */
export function OrganisationField({
  orgs,
  defaultValue,
  error,
}: {
  orgs: readonly { id: number; title: string }[];
  defaultValue: string;
  error?: string;
}) {
  const t = useT();
  return (
    <SelectField
      name="orgId"
      label={t('ops.courses.field.organisation')}
      defaultValue={defaultValue}
      error={error}
      options={[
        { value: '', label: t('ops.courses.chooseOrganisation') },
        ...orgs.map((o) => ({ value: String(o.id), label: o.title })),
      ]}
    />
  );
}
