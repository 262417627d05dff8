import { TERM_TYPES } from '#domain/courses/section-rules.ts';
import { TextField } from '#web/components/text-field.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { DateRangeFields } from './date-range-fields.tsx';
import { SelectField } from './select-field.tsx';

/** Issue 39: a term's fields, to make one (the terms page) or edit one (its own page). */
export function TermFields({
  values,
  errors,
}: {
  values: Record<string, string | undefined>;
  errors: Record<string, string | undefined>;
}) {
  const t = useT();
  return (
    <>
      <TextField
        name="title"
        label={t('ops.courses.field.termTitle')}
        defaultValue={values.title ?? ''}
        error={errors.title}
        required
        maxLength={200}
      />
      <SelectField
        name="termType"
        label={t('ops.courses.field.termType')}
        defaultValue={values.termType ?? 'term'}
        error={errors.termType}
        options={TERM_TYPES.map((type) => ({
          value: type,
          label: t(`ops.courses.termType.${type}`),
        }))}
      />
      <DateRangeFields values={values} errors={errors} />
    </>
  );
}
