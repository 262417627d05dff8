import { TextField } from '#web/components/text-field.tsx';
import { useT } from '#web/i18n/use-t.ts';

/** Issue 39: a term's or a section's first and last day (the end on or after the start). */
export function DateRangeFields({
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
        name="startDate"
        type="date"
        label={t('ops.courses.field.startDate')}
        defaultValue={values.startDate ?? ''}
        error={errors.startDate}
        required
      />
      <TextField
        name="endDate"
        type="date"
        label={t('ops.courses.field.endDate')}
        defaultValue={values.endDate ?? ''}
        error={errors.endDate}
        required
      />
    </>
  );
}
