// The opt-out workflow's confirm and feedback steps (spec 1 §5 Validation; spec 2 §5, §9).

/** The word the confirm step asks for: one word, no hyphen, all capitals (spec 2 §9). */
export const OPT_OUT_KEYWORD = 'OPTOUT';

/** The confirm step passes only on the exact word (spec 1 §5). */
export function confirmsOptOut(typed: string): boolean {
  return typed === OPT_OUT_KEYWORD;
}

/**
 * The reasons of spec 1 §5, by number: 1 publisher, 2 cheaper elsewhere, 3 print copy,
 * 4 instructor not using it, 5 Other (message ids `opting.reason.{n}`).
 */
export const OPT_OUT_REASONS = [1, 2, 3, 4, 5] as const;
export type OptOutReason = (typeof OPT_OUT_REASONS)[number];
export const OTHER_REASON: OptOutReason = 5;

/** The label says 255 characters; the field takes 256 (spec 1 §5, spec 2 §5). */
export const FEEDBACK_LABEL_MAX = 255;
export const FEEDBACK_MAX_LENGTH = 256;

export function isOptOutReason(value: number): value is OptOutReason {
  return (OPT_OUT_REASONS as readonly number[]).includes(value);
}

export type OptOutFeedback = { reason: number | null; message: string };

/**
 * What keeps the feedback from being sent, as a message key, or null when it may be sent:
 * reasons 1 to 4 enable submit; 5 (Other) needs a non-blank message; never over 256.
 */
export function optOutFeedbackProblem(feedback: OptOutFeedback): string | null {
  if (feedback.reason === null || !isOptOutReason(feedback.reason)) {
    return 'opting.feedback.error.reason';
  }
  if (feedback.message.length > FEEDBACK_MAX_LENGTH) return 'opting.feedback.error.tooLong';
  if (feedback.reason === OTHER_REASON && feedback.message.trim() === '') {
    return 'opting.feedback.error.message';
  }
  return null;
}
