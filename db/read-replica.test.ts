import { describe, expect, it } from 'vitest';
import { isConnectionError } from './read-replica.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

// Issue 40: a catalog read that meets one of these leaves the replica for the primary.
describe('isConnectionError (issue 40, read replica fallback)', () => {
  it('issue 40: a refused, reset or dropped connection, or a standby shutting down, is one', () => {
    expect(isConnectionError(withCode('connect ECONNREFUSED 127.0.0.1:5433', 'ECONNREFUSED'))).toBe(
      true,
    );
    expect(isConnectionError(withCode('read ECONNRESET', 'ECONNRESET'))).toBe(true);
    expect(isConnectionError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(
      isConnectionError(withCode('terminating connection due to administrator command', '57P01')),
    ).toBe(true);
    expect(isConnectionError(withCode('the database system is starting up', '57P03'))).toBe(true);
    expect(isConnectionError(withCode('connection failure', '08006'))).toBe(true);
  });

  it('issue 40: found as the cause of a wrapping error (drizzle wraps what the driver throws)', () => {
    const wrapped = new Error('Failed query: select 1', {
      cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED'),
    });
    expect(isConnectionError(wrapped)).toBe(true);
  });

  it('issue 40: a query the replica refused for what it asks is not one: it fails as it would', () => {
    expect(isConnectionError(withCode('relation "nope" does not exist', '42P01'))).toBe(false);
    expect(
      isConnectionError(withCode('canceling statement due to statement timeout', '57014')),
    ).toBe(false);
    expect(isConnectionError('ECONNREFUSED')).toBe(false);
    expect(isConnectionError(null)).toBe(false);
  });
});
