import { describe, expect, it } from 'vitest';
import { firstOptingStep, nextOptingStep } from './opting-workflow.ts';

describe('the opting workflow (spec 1 §4 Opting; spec 2 §4)', () => {
  it('starts with opt-in details if opted out, otherwise opt-out details', () => {
    expect(firstOptingStep('opted_out')).toBe('optInDetails');
    expect(firstOptingStep('opted_in')).toBe('optOutDetails');
  });

  it('opt-out: details, confirm, feedback, success; Stay Opted In closes', () => {
    expect(nextOptingStep('optOutDetails', 'continue')).toBe('optOutConfirm');
    expect(nextOptingStep('optOutDetails', 'stay')).toBe('closeDialog');
    expect(nextOptingStep('optOutConfirm', 'confirm')).toBe('optOutFeedback');
    expect(nextOptingStep('optOutConfirm', 'stay')).toBe('closeDialog');
    expect(nextOptingStep('optOutFeedback', 'submitted')).toBe('optOutSuccess');
  });

  it('issue 19: the survey has a visible way out too; Stay Opted In closes, nothing is sent', () => {
    expect(nextOptingStep('optOutFeedback', 'stay')).toBe('closeDialog');
  });

  it('success: Opt Back In opens opt-in details; Close reloads the page', () => {
    expect(nextOptingStep('optOutSuccess', 'optBackIn')).toBe('optInDetails');
    expect(nextOptingStep('optOutSuccess', 'close')).toBe('reloadPage');
  });

  it('opt-in: Stay Opted Out closes; opting in is confirmed by a reload', () => {
    expect(nextOptingStep('optInDetails', 'stay')).toBe('closeDialog');
    expect(nextOptingStep('optInDetails', 'optedIn')).toBe('reloadPage');
  });

  it('no skipping: the feedback cannot be reached without confirming', () => {
    expect(nextOptingStep('optOutDetails', 'confirm')).toBeNull();
    expect(nextOptingStep('optOutDetails', 'submitted')).toBeNull();
    expect(nextOptingStep('optInDetails', 'continue')).toBeNull();
  });
});
