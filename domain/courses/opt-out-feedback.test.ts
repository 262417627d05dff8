import { describe, expect, it } from 'vitest';
import {
  confirmsOptOut,
  FEEDBACK_LABEL_MAX,
  FEEDBACK_MAX_LENGTH,
  OPT_OUT_KEYWORD,
  OPT_OUT_REASONS,
  optOutFeedbackProblem,
} from './opt-out-feedback.ts';

describe('the opt-out confirmation (spec 1 §5; spec 2 §9)', () => {
  it('needs exactly OPTOUT: one word, no hyphen, all capitals', () => {
    expect(OPT_OUT_KEYWORD).toBe('OPTOUT');
    expect(confirmsOptOut('OPTOUT')).toBe(true);
    for (const typed of ['optout', 'OptOut', 'OPT-OUT', 'OPT OUT', ' OPTOUT', 'OPTOUT ', '']) {
      expect(confirmsOptOut(typed)).toBe(false);
    }
  });
});

describe('the opt-out feedback (spec 1 §5; spec 2 §5)', () => {
  it('reasons 1 to 4 enable submit on their own', () => {
    for (const reason of [1, 2, 3, 4]) {
      expect(optOutFeedbackProblem({ reason, message: '' })).toBeNull();
    }
  });

  it('reason 5 (Other) needs a non-blank message', () => {
    expect(optOutFeedbackProblem({ reason: 5, message: '' })).toBe('opting.feedback.error.message');
    expect(optOutFeedbackProblem({ reason: 5, message: '   \n ' })).toBe(
      'opting.feedback.error.message',
    );
    expect(optOutFeedbackProblem({ reason: 5, message: 'Used a library copy' })).toBeNull();
  });

  it('no reason, or one outside 1 to 5, keeps submit disabled', () => {
    expect(OPT_OUT_REASONS).toEqual([1, 2, 3, 4, 5]);
    expect(optOutFeedbackProblem({ reason: null, message: 'x' })).toBe(
      'opting.feedback.error.reason',
    );
    expect(optOutFeedbackProblem({ reason: 0, message: '' })).toBe('opting.feedback.error.reason');
    expect(optOutFeedbackProblem({ reason: 6, message: '' })).toBe('opting.feedback.error.reason');
  });

  it('the label says 255 and the field takes 256 characters, never more', () => {
    expect(FEEDBACK_LABEL_MAX).toBe(255);
    expect(FEEDBACK_MAX_LENGTH).toBe(256);
    expect(optOutFeedbackProblem({ reason: 5, message: 'x'.repeat(256) })).toBeNull();
    expect(optOutFeedbackProblem({ reason: 5, message: 'x'.repeat(257) })).toBe(
      'opting.feedback.error.tooLong',
    );
  });
});
