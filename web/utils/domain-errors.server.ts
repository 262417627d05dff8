import { data } from 'react-router';
import { DomainError } from '#domain/shared/errors.ts';

/**
 * The one place where pages map thrown domain errors (NotFound, Forbidden, Invalid, ...) to
 * route error responses, so the shared error boundary shows the right page and status.
 */
export function withDomainErrors<Args extends unknown[], Result>(
  fn: (...args: Args) => Promise<Result>,
): (...args: Args) => Promise<Result> {
  return async (...args) => {
    try {
      return await fn(...args);
    } catch (error) {
      if (error instanceof DomainError) {
        throw data(
          { messageKey: error.messageKey, params: error.params },
          { status: error.status },
        );
      }
      throw error;
    }
  };
}
