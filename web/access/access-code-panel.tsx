import { useCallback, useEffect, useState } from 'react';
import { useT } from '#web/i18n/use-t.ts';
import { NOTIFY_MS } from '#web/utils/button-notify.tsx';
import { useCsrfToken } from '#web/utils/csrf-token.ts';

type Code = { code: string; url: string | null };
type PanelState =
  | { name: 'loading' }
  | { name: 'shown'; code: Code }
  | { name: 'acquire' }
  /** The server refused; errorCount counts refusals (the text shows from the second). */
  | { name: 'error'; errorCount: number; buttonHidden: boolean };

type CodeBody = {
  data?: { attributes?: { user_access_code: string | null; access_code_url: string | null } };
};

async function codeRequest(
  productId: number,
  method: 'GET' | 'POST',
  csrfToken: string | null,
): Promise<{ status: number; code: Code | null }> {
  const response = await fetch(`/api/access-items/${productId}/access-code`, {
    method,
    credentials: 'same-origin',
    headers: {
      Accept: 'application/vnd.api+json',
      ...(method === 'POST' && csrfToken ? { 'X-CSRFToken': csrfToken } : {}),
    },
  });
  const body = (await response.json().catch(() => null)) as CodeBody | null;
  const attributes = body?.data?.attributes;
  return {
    status: response.status,
    code: attributes?.user_access_code
      ? { code: attributes.user_access_code, url: attributes.access_code_url }
      : null,
  };
}

/** Whether the user's own assets list the product: the fallback lookup (spec 1 §4). */
async function ownedThroughAssets(productId: number): Promise<boolean> {
  const response = await fetch(`/api/catalog-items/${productId}`, {
    credentials: 'same-origin',
    headers: { Accept: 'application/vnd.api+json' },
  });
  if (!response.ok) return false;
  const body = (await response.json()) as {
    included?: { type: string; attributes?: { isOwned?: boolean } }[];
  };
  return !!body.included?.some((r) => r.type === 'user-availability' && r.attributes?.isOwned);
}

/**
 * The access code panel of owned courseware (spec 1 §4 Access code panel): loading, then the
 * code read-only with a copy action, or Acquire Access Code. A refusal counts as an error and
 * shows the failure text (spec 2 §8) from the second one; a failed request hides the button.
 */
export function AccessCodePanel({ productId }: { productId: number }) {
  const t = useT();
  const csrfToken = useCsrfToken();
  const [state, setState] = useState<PanelState>({ name: 'loading' });
  const [copied, setCopied] = useState<'ok' | 'failed' | null>(null);

  const fail = useCallback((buttonHidden: boolean) => {
    setState((previous) => ({
      name: 'error',
      errorCount: (previous.name === 'error' ? previous.errorCount : 0) + 1,
      buttonHidden,
    }));
  }, []);

  useEffect(() => {
    let live = true;
    codeRequest(productId, 'GET', null)
      .then(async ({ status, code }) => {
        if (!live) return;
        if (status === 200) return setState(code ? { name: 'shown', code } : { name: 'acquire' });
        // Subscription not found: look through the user's own assets before giving up.
        if (status === 404 && (await ownedThroughAssets(productId))) {
          const again = await codeRequest(productId, 'GET', null);
          if (live && again.status === 200) {
            return setState(again.code ? { name: 'shown', code: again.code } : { name: 'acquire' });
          }
        }
        if (live) setState({ name: 'error', errorCount: 2, buttonHidden: false });
      })
      .catch(() => live && setState({ name: 'error', errorCount: 2, buttonHidden: true }));
    return () => {
      live = false;
    };
  }, [productId]);

  useEffect(() => {
    if (copied === null) return;
    const timer = window.setTimeout(() => setCopied(null), NOTIFY_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const acquire = async () => {
    setState({ name: 'loading' });
    try {
      const { status, code } = await codeRequest(productId, 'POST', csrfToken);
      if (status === 200 && code) setState({ name: 'shown', code });
      else fail(false);
    } catch {
      fail(true);
    }
  };

  return (
    <section className="access-code stack-sm" aria-labelledby={`access-code-${productId}`}>
      <h4 id={`access-code-${productId}`}>{t('access.title')}</h4>
      {state.name === 'loading' ? (
        <output className="sheet__loading">{t('access.loading')}</output>
      ) : null}
      {state.name === 'shown' ? (
        <div className="stack-sm">
          <label className="field">
            <span>{t('access.code')}</span>
            <input readOnly value={state.code.code} onFocus={(e) => e.currentTarget.select()} />
          </label>
          <div className="button-row">
            <button
              type="button"
              className="button button--secondary"
              onClick={() =>
                navigator.clipboard
                  .writeText(state.code.code)
                  .then(() => setCopied('ok'))
                  .catch(() => setCopied('failed'))
              }
            >
              {t('access.copy')}
            </button>
            {state.code.url ? (
              <a
                className="button button--primary"
                href={state.code.url}
                target="_blank"
                rel="noopener noreferrer"
              >
                {t('access.redeemAt')}
              </a>
            ) : null}
          </div>
          <output className="form-hint">
            {copied === 'ok' ? t('access.copied') : copied === 'failed' ? t('notify.error') : ''}
          </output>
        </div>
      ) : null}
      {state.name === 'error' && state.errorCount > 1 ? (
        <p className="alert alert--error" role="alert">
          {t('access.error.retrieve')}
        </p>
      ) : null}
      {state.name === 'acquire' || (state.name === 'error' && !state.buttonHidden) ? (
        <button
          type="button"
          className="button button--primary"
          disabled={!csrfToken}
          onClick={() => void acquire()}
        >
          {t('access.acquire')}
        </button>
      ) : null}
    </section>
  );
}
