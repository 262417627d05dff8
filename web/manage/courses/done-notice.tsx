import { useT } from '#web/i18n/use-t.ts';
import type { Done } from './course-forms.ts';

/** Issue 39: what the last save did, said politely after the redirect that followed it. */
export function DoneNotice({ done }: { done: Done | null }) {
  const t = useT();
  if (!done) return null;
  return <output className="alert alert--success">{t(`ops.courses.done.${done}`)}</output>;
}
