import * as Dialog from '@radix-ui/react-dialog';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import {
  confirmsOptOut,
  FEEDBACK_MAX_LENGTH,
  OPT_OUT_REASONS,
  type OptOutReason,
  OTHER_REASON,
  optOutFeedbackProblem,
} from '#domain/courses/opt-out-feedback.ts';
import type { OptStatus } from '#domain/courses/opting.ts';
import {
  firstOptingStep,
  nextOptingStep,
  type OptingAction,
  type OptingStep,
} from '#domain/courses/opting-workflow.ts';
import type { OptingFacts as OptingFactsData } from '#domain/courses/service.ts';
import { useT } from '#web/i18n/use-t.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';
import { OptingFacts } from './opting-facts.tsx';

type CallResult = { ok: true } | { ok: false; detail: string | null };

/** The member calls of spec 2 §7: opt-out with selected_reason and message, opt-in without. */
async function memberCall(
  memberId: number,
  call: 'opt-out' | 'opt-in',
  csrfToken: string,
  attributes?: { selected_reason: number; message: string },
): Promise<CallResult> {
  try {
    const response = await fetch(`/api/members/${memberId}/${call}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        'Content-Type': 'application/vnd.api+json',
        Accept: 'application/vnd.api+json',
        'X-CSRFToken': csrfToken,
      },
      body: JSON.stringify({
        data: { type: 'Member', id: String(memberId), ...(attributes ? { attributes } : {}) },
      }),
    });
    if (response.ok) return { ok: true };
    const body = (await response.json().catch(() => null)) as {
      errors?: { detail?: string }[];
    } | null;
    return { ok: false, detail: body?.errors?.[0]?.detail ?? null };
  } catch {
    return { ok: false, detail: null };
  }
}

/**
 * The opting dialog (spec 1 §4 Opting; spec 2 §4): opt-out details, confirm (type OPTOUT),
 * feedback (a reason; 'Other' needs a message) and success, or opt-in details. The steps
 * follow the table in domain/courses/opting-workflow.ts; each step's first control takes
 * the focus, and a failed call closes the dialog for the error modal. Rendered inside the
 * banner's Dialog.Root, whose trigger gets the focus back. The details steps show what the
 * student decides on: fee, what it includes, the separate price, the deadline (issue 19).
 */
export function OptingWorkflow({
  memberId,
  optStatus,
  deadline,
  facts,
  onClose,
  onChanged,
  onError,
}: {
  memberId: number;
  optStatus: OptStatus;
  /** YYYY-MM-DD. */
  deadline: string;
  facts: OptingFactsData;
  /** Closes the dialog ('Stay Opted In' / 'Stay Opted Out'); the banner reloads after a change. */
  onClose: () => void;
  /** An opt-out went through: closing now reloads the page. */
  onChanged: () => void;
  /** A call failed: which one, and the server's explanation. */
  onError: (direction: 'in' | 'out', detail: string | null) => void;
}) {
  const t = useT();
  const csrfToken = useCsrfToken();
  const [step, setStep] = useState<OptingStep>(firstOptingStep(optStatus));
  const [typed, setTyped] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [reason, setReason] = useState<OptOutReason | null>(null);
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);
  const content = useRef<HTMLDivElement>(null);
  const word = useRef<HTMLInputElement>(null);
  const firstStep = useRef(true);

  // A new step replaces the controls that had the focus: give it to the step's first one.
  useEffect(() => {
    void step;
    if (firstStep.current) {
      firstStep.current = false;
      return;
    }
    content.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, [step]);

  const go = (action: OptingAction) => {
    const next = nextOptingStep(step, action);
    if (next === null) return;
    if (next === 'closeDialog') onClose();
    else if (next === 'reloadPage') window.location.reload();
    else setStep(next);
  };

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    if (confirmsOptOut(typed)) {
      setMismatch(false);
      go('confirm');
    } else {
      setMismatch(true);
      word.current?.focus();
    }
  };

  const problem = optOutFeedbackProblem({ reason, message });
  const submitFeedback = async (event: FormEvent) => {
    event.preventDefault();
    if (problem !== null || reason === null || !csrfToken || sending) return;
    setSending(true);
    const result = await memberCall(memberId, 'opt-out', csrfToken, {
      selected_reason: reason,
      message,
    });
    setSending(false);
    if (!result.ok) return onError('out', result.detail);
    onChanged();
    go('submitted');
  };

  const optIn = async () => {
    if (!csrfToken || sending) return;
    setSending(true);
    const result = await memberCall(memberId, 'opt-in', csrfToken);
    if (!result.ok) {
      setSending(false);
      return onError('in', result.detail);
    }
    go('optedIn');
  };

  // Every step's text is its description; the feedback step's form has none.
  const noDescription = step === 'optOutFeedback' ? { 'aria-describedby': undefined } : {};
  return (
    <Dialog.Portal>
      <Dialog.Overlay className="dialog__overlay" />
      <Dialog.Content ref={content} className="dialog" {...noDescription}>
        {step === 'optOutDetails' ? (
          <>
            <Dialog.Title className="dialog__title">{t('opting.optOut.title')}</Dialog.Title>
            <Dialog.Description>
              {t('opting.optOut.details', { date: deadline })}
            </Dialog.Description>
            <OptingFacts facts={facts} id="opting-facts-out" />
            <div className="button-row">
              <button type="button" className="button button--primary" onClick={() => go('stay')}>
                {t('opting.stayIn')}
              </button>
              <button type="button" className="button" onClick={() => go('continue')}>
                {t('opting.continueOut')}
              </button>
            </div>
          </>
        ) : null}
        {step === 'optOutConfirm' ? (
          <form className="stack" onSubmit={confirm} noValidate>
            <Dialog.Title className="dialog__title">{t('opting.confirm.title')}</Dialog.Title>
            <Dialog.Description>{t('opting.optOut.title')}</Dialog.Description>
            <div className="field">
              <label htmlFor="optout-word">{t('opting.confirm.label')}</label>
              <input
                ref={word}
                id="optout-word"
                name="optout-word"
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                data-autofocus
                aria-invalid={mismatch ? true : undefined}
                aria-describedby={mismatch ? 'optout-word-error' : undefined}
              />
              {mismatch ? (
                <p className="field__error" id="optout-word-error" role="alert">
                  {t('opting.confirm.mismatch')}
                </p>
              ) : null}
            </div>
            <div className="button-row">
              <button type="button" className="button button--primary" onClick={() => go('stay')}>
                {t('opting.stayIn')}
              </button>
              <button type="submit" className="button">
                {t('opting.optOut')}
              </button>
            </div>
          </form>
        ) : null}
        {step === 'optOutFeedback' ? (
          <form className="stack" onSubmit={submitFeedback} noValidate>
            <Dialog.Title className="dialog__title">{t('opting.feedback.title')}</Dialog.Title>
            <fieldset className="stack-sm">
              <legend>{t('opting.feedback.reason')}</legend>
              {OPT_OUT_REASONS.map((value) => (
                <label key={value} className="radio">
                  <input
                    type="radio"
                    name="selected_reason"
                    value={value}
                    checked={reason === value}
                    onChange={() => setReason(value)}
                    data-autofocus={value === 1 ? true : undefined}
                  />
                  {t(`opting.reason.${value}`)}
                </label>
              ))}
            </fieldset>
            <div className="field">
              <label htmlFor="optout-message">{t('opting.feedback.message')}</label>
              <textarea
                id="optout-message"
                name="message"
                rows={3}
                maxLength={FEEDBACK_MAX_LENGTH}
                value={message}
                onChange={(event) => setMessage(event.target.value)}
                aria-required={reason === OTHER_REASON ? true : undefined}
                aria-describedby={reason === OTHER_REASON ? 'optout-message-hint' : undefined}
              />
              {reason === OTHER_REASON ? (
                <p className="form-hint" id="optout-message-hint">
                  {t('opting.feedback.messageRequired')}
                </p>
              ) : null}
            </div>
            {reason === null ? (
              // Why Submit waits (spec 1 §5: a reason enables it), said before it is pressed.
              <p className="form-hint" id="optout-reason-hint">
                {t('opting.feedback.chooseReason')}
              </p>
            ) : null}
            <div className="button-row">
              <button
                type="submit"
                className="button button--primary"
                disabled={problem !== null || sending || !csrfToken}
                aria-describedby={reason === null ? 'optout-reason-hint' : undefined}
              >
                {t(sending ? 'opting.feedback.sending' : 'opting.feedback.submit')}
              </button>
              {/* A way out a mouse or a finger can see, as the other steps have (issue 19):
                  the student stays opted in and the page says so. */}
              <button type="button" className="button" onClick={() => go('stay')}>
                {t('opting.stayIn')}
              </button>
            </div>
          </form>
        ) : null}
        {step === 'optOutSuccess' ? (
          <>
            <Dialog.Title className="dialog__title">{t('opting.success.title')}</Dialog.Title>
            <Dialog.Description>{t('opting.success.text', { date: deadline })}</Dialog.Description>
            <div className="button-row">
              <button
                type="button"
                className="button"
                onClick={() => go('optBackIn')}
                data-autofocus
              >
                {t('opting.optBackIn')}
              </button>
              <button type="button" className="button button--primary" onClick={() => go('close')}>
                {t('opting.close')}
              </button>
            </div>
          </>
        ) : null}
        {step === 'optInDetails' ? (
          <>
            <Dialog.Title className="dialog__title">{t('opting.optIn.title')}</Dialog.Title>
            <Dialog.Description>{t('opting.optIn.details', { date: deadline })}</Dialog.Description>
            <OptingFacts facts={facts} id="opting-facts-in" />
            <div className="button-row">
              <button type="button" className="button" onClick={() => go('stay')} data-autofocus>
                {t('opting.stayOut')}
              </button>
              <button
                type="button"
                className="button button--primary"
                onClick={optIn}
                disabled={sending || !csrfToken}
              >
                {t(sending ? 'opting.optIn.sending' : 'opting.optIn')}
              </button>
            </div>
          </>
        ) : null}
      </Dialog.Content>
    </Dialog.Portal>
  );
}
