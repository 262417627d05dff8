import { type FormEvent, useState } from 'react';
import { notePageMessages } from '#web/i18n/catalog.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';

export type CoursewareLaunchProps = {
  productId: number;
  title: string;
  version: '1.1' | '1.3';
  sectionId: number | null;
  coursewarePricingId: string | null;
  userId: number;
};

function submitForm(
  action: string,
  method: 'get' | 'post',
  fields: Record<string, string>,
  target: string,
) {
  const form = document.createElement('form');
  form.method = method;
  form.action = action;
  form.target = target;
  form.hidden = true;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
  form.remove();
}

/**
 * 'Access Courseware' of a courseware with a registered tool (spec 1 §4 Courseware launch,
 * issue 14). Link 2.0 requests the launch data, then submits the form to the provider in a
 * new tab; Link 1.0 authorizes, then submits a GET form with target_url and cache_key to the
 * launch URL. A failure shows the error in the footer and hides the button. Without scripts the
 * button's own form opens the launch in a new tab.
 */
export function CoursewareLaunch({
  productId,
  title,
  version,
  sectionId,
  coursewarePricingId,
  userId,
}: CoursewareLaunchProps) {
  const t = useT();
  // Shown after hydration, without a press the full catalog would come with.
  notePageMessages(useLocale(), ['launch.error.generic', 'launch.error.popup']);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const label = t('shelf.button.accessCourseware');
  const errorId = `courseware-launch-error-${productId}`;

  async function launch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    // Opened now, while the click still counts, so that pop-up blockers let it through.
    const target = `courseware-${productId}-${Date.now()}`;
    const tab = window.open('about:blank', target);
    try {
      const query = new URLSearchParams({ user_id: String(userId) });
      if (sectionId !== null) query.set('section_id', String(sectionId));
      let url: string;
      if (version === '1.1') {
        if (coursewarePricingId) query.set('courseware_pricing_id', coursewarePricingId);
        else query.set('courseware_id', String(productId));
        url = `/lti1p0/link/authorize/?${query}`;
      } else {
        query.set('courseware_id', String(productId));
        query.set('new_tab', 'True');
        query.set('format', 'json');
        url = `/lti/launch/?${query}`;
      }
      const response = await fetch(url, { headers: { Accept: 'application/json' } });
      const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      const complete =
        version === '1.1' ? body.target_url && body.cache_key : body.redirect_uri && body.fields;
      if (!response.ok || body.error || !complete) {
        throw new Error(typeof body.error === 'string' ? body.error : t('launch.error.generic'));
      }
      if (!tab) throw new Error(t('launch.error.popup'));
      if (version === '1.1') {
        submitForm(
          '/lti1p0/link/launch/',
          'get',
          { target_url: String(body.target_url), cache_key: String(body.cache_key) },
          target,
        );
      } else {
        submitForm(
          String(body.redirect_uri),
          'post',
          body.fields as Record<string, string>,
          target,
        );
      }
    } catch (failure) {
      tab?.close();
      setError(failure instanceof Error ? failure.message : t('launch.error.generic'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="stack-sm">
      {error ? null : (
        <form method="get" action="/lti/launch/" target="_blank" onSubmit={launch} rel="noopener">
          <input type="hidden" name="courseware_id" value={productId} />
          {sectionId !== null ? <input type="hidden" name="section_id" value={sectionId} /> : null}
          <input type="hidden" name="new_tab" value="True" />
          <button
            type="submit"
            className="button button--primary"
            aria-label={t('shelf.button.of', { action: label, title })}
            aria-busy={busy}
          >
            {label}
          </button>
        </form>
      )}
      {error ? (
        <p id={errorId} className="alert alert--error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
