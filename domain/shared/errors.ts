// Thrown failures: the adapters map each kind to a status and a translated message in one
// place (STYLE.md, Services, state and errors). Outcomes a user can cause are returned instead.
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export abstract class DomainError extends Error {
  abstract readonly status: 400 | 403 | 404 | 409 | 429;
  readonly logLevel: LogLevel = 'info';
  constructor(
    readonly messageKey: string,
    readonly params: Record<string, string | number> = {},
  ) {
    super(messageKey);
    this.name = new.target.name;
  }
}

export class NotFound extends DomainError {
  readonly status = 404 as const;
  constructor(messageKey = 'error.notFound', params?: Record<string, string | number>) {
    super(messageKey, params);
  }
}

export class Forbidden extends DomainError {
  readonly status = 403 as const;
  constructor(messageKey = 'error.forbidden', params?: Record<string, string | number>) {
    super(messageKey, params);
  }
}

export class Invalid extends DomainError {
  readonly status = 400 as const;
  constructor(messageKey = 'error.invalid', params?: Record<string, string | number>) {
    super(messageKey, params);
  }
}

export class Conflict extends DomainError {
  readonly status = 409 as const;
}

export class TooManyRequests extends DomainError {
  readonly status = 429 as const;
}
