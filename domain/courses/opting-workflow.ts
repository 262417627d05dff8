import type { OptStatus } from './opting.ts';

// The opting dialog's steps as a table (spec 1 §4 Opting; spec 2 §4): opt-out goes details →
// confirm → feedback → success; opt-in is details, then the call, confirmed by a reload.

export type OptingStep =
  | 'optOutDetails'
  | 'optOutConfirm'
  | 'optOutFeedback'
  | 'optOutSuccess'
  | 'optInDetails';

export type OptingAction =
  /** 'Stay Opted In' / 'Stay Opted Out'. */
  | 'stay'
  /** 'Continue to Opt Out'. */
  | 'continue'
  /** 'Opt Out' on the confirm step, once OPTOUT is typed. */
  | 'confirm'
  /** The feedback's submit succeeded. */
  | 'submitted'
  /** 'Opt Back In'. */
  | 'optBackIn'
  /** 'Close' on the success step. */
  | 'close'
  /** 'Opt In' succeeded. */
  | 'optedIn';

/** What follows: another step, closing the dialog, or reloading the page. */
export type OptingNext = OptingStep | 'closeDialog' | 'reloadPage';

const MOVES: Record<OptingStep, Partial<Record<OptingAction, OptingNext>>> = {
  optOutDetails: { stay: 'closeDialog', continue: 'optOutConfirm' },
  optOutConfirm: { stay: 'closeDialog', confirm: 'optOutFeedback' },
  optOutFeedback: { stay: 'closeDialog', submitted: 'optOutSuccess' },
  // 'Close' reloads the page (spec 1 §4).
  optOutSuccess: { optBackIn: 'optInDetails', close: 'reloadPage' },
  // Opting in is confirmed by a page reload (spec 1 §4).
  optInDetails: { stay: 'closeDialog', optedIn: 'reloadPage' },
};

/** The workflow starts with opt-in details if the member is opted out, else opt-out details. */
export function firstOptingStep(optStatus: OptStatus): OptingStep {
  return optStatus === 'opted_out' ? 'optInDetails' : 'optOutDetails';
}

/** The step an action leads to, or null when the action does not belong to the step. */
export function nextOptingStep(step: OptingStep, action: OptingAction): OptingNext | null {
  return MOVES[step][action] ?? null;
}
