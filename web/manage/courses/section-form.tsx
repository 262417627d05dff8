import { Form } from 'react-router';
import { OPTING_METHODS } from '#domain/courses/section-rules.ts';
import { TextField } from '#web/components/text-field.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { DateRangeFields } from './date-range-fields.tsx';
import { SelectField } from './select-field.tsx';

export type SectionFormValues = Record<string, string>;

/**
 * Issue 39: a section's form, to make one (on its course's page) or edit one (on its own page).
 * Deadlines are a date and a time on the course's clock, in the time zone named beside them;
 * the deadlines and the fee field show only where the course type bills a fee.
 */
export function SectionForm({
  values,
  errors,
  terms,
  hasFee,
  csrfToken,
  submitLabel,
}: {
  values: SectionFormValues;
  errors: Record<string, string | undefined>;
  terms: readonly { id: number; title: string }[];
  hasFee: boolean;
  csrfToken: string;
  submitLabel: string;
}) {
  const t = useT();
  const v = (name: string) => values[name] ?? '';
  return (
    <Form method="post" className="stack narrow" noValidate>
      <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
      <input type="hidden" name="intent" value="section" />
      <TextField
        name="name"
        label={t('ops.courses.field.sectionName')}
        defaultValue={v('name')}
        error={errors.name}
        required
        maxLength={200}
      />
      <TextField
        name="number"
        label={t('ops.courses.field.sectionNumber')}
        defaultValue={v('number')}
        error={errors.number}
        maxLength={20}
      />
      <SelectField
        name="termId"
        label={t('ops.courses.field.term')}
        defaultValue={v('termId')}
        error={errors.termId}
        options={[
          { value: '', label: t('ops.courses.field.noTerm') },
          ...terms.map((term) => ({ value: String(term.id), label: term.title })),
        ]}
      />
      <DateRangeFields values={values} errors={errors} />
      <TextField
        name="timeZone"
        label={t('ops.courses.field.timeZone')}
        hint={t('ops.courses.hint.timeZone')}
        defaultValue={v('timeZone') || 'America/New_York'}
        error={errors.timeZone}
        required
        maxLength={64}
        autoComplete="off"
        spellCheck={false}
      />
      {/* A regular course's students buy: nobody opts out, so no deadline is asked (decision
          036; the rules keep one without it). Blank fields say so to the action. */}
      {hasFee ? (
        <>
          <fieldset className="stack">
            <legend>{t('ops.courses.field.optOut')}</legend>
            <p className="form-hint">{t('ops.courses.hint.optOut')}</p>
            <TextField
              name="optOutDate"
              type="date"
              label={t('ops.courses.field.deadlineDate')}
              defaultValue={v('optOutDate')}
              error={errors.optOutDate}
              required
            />
            <TextField
              name="optOutTime"
              type="time"
              label={t('ops.courses.field.deadlineTime')}
              defaultValue={v('optOutTime') || '23:59'}
              error={errors.optOutTime}
              required
            />
          </fieldset>
          <fieldset className="stack">
            <legend>{t('ops.courses.field.dropPeriod')}</legend>
            <p className="form-hint">{t('ops.courses.hint.dropPeriod')}</p>
            <TextField
              name="dropDate"
              type="date"
              label={t('ops.courses.field.dropDate')}
              defaultValue={v('dropDate')}
              error={errors.dropDate}
            />
            <TextField
              name="dropTime"
              type="time"
              label={t('ops.courses.field.dropTime')}
              defaultValue={v('dropTime')}
              error={errors.dropTime}
            />
          </fieldset>
        </>
      ) : (
        <>
          <input type="hidden" name="optOutDate" value="" />
          <input type="hidden" name="optOutTime" value="" />
          <input type="hidden" name="dropDate" value="" />
          <input type="hidden" name="dropTime" value="" />
        </>
      )}
      <SelectField
        name="optingMethod"
        label={t('ops.courses.field.optingMethod')}
        defaultValue={v('optingMethod') || 'opt-out'}
        error={errors.optingMethod}
        options={OPTING_METHODS.map((m) => ({
          value: m,
          label: t(`ops.courses.optingMethod.${m}`),
        }))}
      />
      {hasFee ? (
        <TextField
          name="fee"
          label={t('ops.courses.field.fee')}
          hint={t('ops.courses.hint.fee')}
          defaultValue={v('fee')}
          error={errors.fee}
          inputMode="decimal"
          required
          maxLength={20}
        />
      ) : (
        <input type="hidden" name="fee" value="" />
      )}
      {hasFee || !errors.fee ? null : <p className="field__error">{t(errors.fee)}</p>}
      <TextField
        name="sectionCode"
        label={t('ops.courses.field.sectionCode')}
        hint={t('ops.courses.hint.sectionCode')}
        defaultValue={v('sectionCode')}
        error={errors.sectionCode}
        maxLength={40}
        autoComplete="off"
      />
      <p>
        <button type="submit" className="button button--primary">
          {submitLabel}
        </button>
      </p>
    </Form>
  );
}
