import { describe, expect, it } from 'vitest';
import { auditActorOf, changedValues } from './audit.ts';

describe('audit (issue 39: who, when, acting as whom, before → after)', () => {
  const user = { id: 7, email: 'maya@demo.test', firstName: 'Maya', lastName: 'Okafor' };

  it('a person acting as themselves is the actor', () => {
    expect(auditActorOf({ ...user, impersonatorId: null })).toEqual({
      userId: 7,
      actingAsUserId: null,
      label: 'Maya Okafor <maya@demo.test>',
    });
  });

  it('through Switch Account the manager is the actor, acting as the person', () => {
    expect(auditActorOf({ ...user, impersonatorId: 2 }, 'Alex Morgan <manager@demo.test>')).toEqual(
      { userId: 2, actingAsUserId: 7, label: 'Alex Morgan <manager@demo.test>' },
    );
  });

  it('keeps only the fields that changed', () => {
    expect(changedValues({ a: 1, b: 'x', c: null }, { a: 1, b: 'y', c: null })).toEqual({
      before: { b: 'x' },
      after: { b: 'y' },
    });
    expect(changedValues({ a: 1 }, { a: 1 })).toBeNull();
    expect(changedValues({}, { fee: 7900 })).toEqual({
      before: { fee: null },
      after: { fee: 7900 },
    });
  });
});
