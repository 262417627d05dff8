import {
  CHOOSABLE_COURSE_TYPES,
  type CourseType,
  courseTypeLabel,
} from '#domain/courses/section-rules.ts';
import { TextField } from '#web/components/text-field.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { SelectField } from './select-field.tsx';

/**
 * Issue 39: a course's fields, to make one (the courses page) or edit one (its own page). The
 * type offers the three to choose from, and the one the course has (decision 036). Editing,
 * the section fee beside the type is what its running sections without a fee take when the
 * type changes to one that bills a fee (domain/courses/course-type-change.ts); it is always
 * shown, so the form works the same without JavaScript.
 */
export function CourseFields({
  values,
  errors,
  currentType,
}: {
  values: Record<string, string | undefined>;
  errors: Record<string, string | undefined>;
  /** The edited course's type; null for a new course. */
  currentType: CourseType | null;
}) {
  const t = useT();
  const types = [...new Set([...CHOOSABLE_COURSE_TYPES, ...(currentType ? [currentType] : [])])];
  return (
    <>
      <TextField
        name="name"
        label={t('ops.courses.field.courseName')}
        defaultValue={values.name ?? ''}
        error={errors.name}
        required
        maxLength={200}
      />
      <TextField
        name="department"
        label={t('ops.courses.field.department')}
        hint={t('ops.courses.hint.department')}
        defaultValue={values.department ?? ''}
        error={errors.department}
        required
        maxLength={20}
      />
      <TextField
        name="number"
        label={t('ops.courses.field.courseNumber')}
        defaultValue={values.number ?? ''}
        error={errors.number}
        required
        maxLength={20}
      />
      <SelectField
        name="courseType"
        label={t('ops.courses.field.courseType')}
        defaultValue={values.courseType ?? currentType ?? 'inclusive_access'}
        error={errors.courseType}
        options={types.map((type) => ({ value: type, label: t(courseTypeLabel(type)) }))}
      />
      {currentType === null ? null : (
        <TextField
          name="sectionFee"
          label={t('ops.courses.field.sectionFee')}
          hint={t('ops.courses.hint.sectionFee')}
          defaultValue={values.sectionFee ?? ''}
          error={errors.sectionFee}
          inputMode="decimal"
          maxLength={20}
        />
      )}
    </>
  );
}
