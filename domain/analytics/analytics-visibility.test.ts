import { describe, expect, it } from 'vitest';
import { analyticsVisibility } from './analytics-visibility.ts';

describe('analyticsVisibility (spec 1 §6 professors and teaching assistants; issue 19: students named to nobody else)', () => {
  it("the section's professor and teaching assistant see it, names included", () => {
    expect(analyticsVisibility(['professor'])).toEqual({ visible: true });
    expect(analyticsVisibility(['teaching_assistant'])).toEqual({ visible: true });
    expect(analyticsVisibility(['student', 'teaching_assistant'])).toEqual({ visible: true });
  });

  it('a student of the section is refused, with the reason', () => {
    expect(analyticsVisibility(['student'])).toEqual({
      visible: false,
      messageKey: 'analytics.error.notTeacher',
    });
  });

  it('anyone not teaching the section (another section’s professor, a manager) is refused', () => {
    expect(analyticsVisibility([])).toEqual({
      visible: false,
      messageKey: 'analytics.error.notTeacher',
    });
    expect(analyticsVisibility(['manager', 'bookstore_manager']).visible).toBe(false);
  });
});
