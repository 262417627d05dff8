import { useEffect, useRef } from 'react';
import { Form, Link } from 'react-router';
import { useT } from '#web/i18n/use-t.ts';

/**
 * Issue 39: the second step of a change that cannot be undone from the page (end a term, end a
 * section, remove a member). The first post answers with this: what will change, the button
 * that does it (the same intent, now with confirm=yes) and Cancel back to the page. It works
 * without JavaScript (two posts); with it, focus moves here so a keyboard or screen-reader user
 * lands on the question.
 */
export function ConfirmStep({
  heading,
  text,
  intent,
  fields = {},
  csrfToken,
  confirmLabel,
  cancelTo,
}: {
  heading: string;
  text: string;
  intent: string;
  fields?: Record<string, string | number>;
  csrfToken: string;
  confirmLabel: string;
  /** The page to go back to, unchanged. */
  cancelTo: string;
}) {
  const t = useT();
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    box.current?.focus();
  }, []);
  return (
    <section
      ref={box}
      tabIndex={-1}
      className="stack alert alert--info"
      aria-labelledby="confirm-step-heading"
    >
      <h2 id="confirm-step-heading">{heading}</h2>
      <p>{text}</p>
      <Form method="post" className="cluster">
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
        <input type="hidden" name="intent" value={intent} />
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="confirm" value="yes" />
        <button type="submit" className="button button--primary">
          {confirmLabel}
        </button>
        <Link to={cancelTo} className="button button--secondary">
          {t('ops.courses.confirm.cancel')}
        </Link>
      </Form>
    </section>
  );
}
