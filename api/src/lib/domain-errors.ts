/**
 * The failures a service (or a policy such as rate limiting) reports on purpose. Each names its kind and a stable
 * envelope code; it knows nothing about HTTP. `middleware/errors.ts` alone maps a kind to a status and writes the
 * one JSON envelope `{ error: { code, message, details? } }`.
 */
export type DomainErrorKind = 'invalid' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'refused' | 'rate_limited' | 'unavailable';

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  readonly code: string;
  readonly details: unknown;

  constructor(code: string, message: string, options: { details?: unknown; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details;
  }
}

/** The input breaks a rule (shape, length, format). */
export class InvalidInputError extends DomainError {
  readonly kind = 'invalid';
  constructor(message: string, options: { code?: string; details?: unknown } = {}) {
    super(options.code ?? 'validation_failed', message, options);
  }
}

/** The caller could not prove who it is (e.g. a bad webhook signature). */
export class UnauthorizedError extends DomainError {
  readonly kind = 'unauthorized';
  constructor(message: string, options: { code?: string } = {}) {
    super(options.code ?? 'unauthorized', message);
  }
}

/** The caller is known but may not do this (e.g. a deploy token used for an app it was not issued for). */
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
  constructor(message: string, options: { code?: string } = {}) {
    super(options.code ?? 'forbidden', message);
  }
}

/** The thing asked for does not exist (or is not public). */
export class NotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor(message = 'Not found', options: { code?: string } = {}) {
    super(options.code ?? 'not_found', message);
  }
}

/** The request contradicts what is stored (e.g. an idempotency key reused with another body). */
export class ConflictError extends DomainError {
  readonly kind = 'conflict';
  constructor(message: string, options: { code?: string } = {}) {
    super(options.code ?? 'conflict', message);
  }
}

/** Well-formed input the service declines to act on (e.g. a website it must not fetch). */
export class RefusedError extends DomainError {
  readonly kind = 'refused';
  constructor(message: string, options: { code?: string } = {}) {
    super(options.code ?? 'refused', message);
  }
}

/** Too many attempts; the caller may try again after `retryAfterSeconds`. */
export class RateLimitedError extends DomainError {
  readonly kind = 'rate_limited';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', message);
  }
}

/**
 * A feature the server cannot offer as configured (e.g. the webhook without a secret), or not now (a full work queue:
 * the caller may try again after `retryAfterSeconds`).
 */
export class UnavailableError extends DomainError {
  readonly kind = 'unavailable';
  readonly retryAfterSeconds: number | undefined;
  constructor(message: string, options: { code?: string; retryAfterSeconds?: number } = {}) {
    super(options.code ?? 'unavailable', message);
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
