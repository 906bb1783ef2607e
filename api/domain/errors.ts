/**
 * Errors the layers below HTTP throw when a request cannot be carried out. They name what went wrong
 * in the service's terms; `http/errors.ts` is the one place that turns them into problem+json.
 */
export interface FieldError {
  /** JSON pointer into the request body (`#/decisions/0/criterion`). */
  pointer: string;
  detail: string;
}

export type DomainErrorKind =
  | 'not_found'
  | 'invalid'
  | 'too_large'
  | 'conflict'
  | 'forbidden'
  /** A conditional write whose condition (If-Match) no longer holds; `extra` carries the current state. */
  | 'precondition_failed';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly errors?: FieldError[],
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const domainErrors = {
  notFound: (what = 'resource') => new DomainError('not_found', `No such ${what}.`),
  invalid: (errors: FieldError[], detail?: string) =>
    new DomainError(
      'invalid',
      detail ?? `The request has ${errors.length} invalid field${errors.length === 1 ? '' : 's'}.`,
      errors,
    ),
  /** Over a configured size limit (pages or issues of a scan). */
  tooLarge: (errors: FieldError[], detail: string) => new DomainError('too_large', detail, errors),
  /** `errors` name what stands in the way (newer results a publication would leave out). */
  conflict: (detail: string, extra?: Record<string, unknown>, errors?: FieldError[]) =>
    new DomainError('conflict', detail, errors, extra),
  forbidden: (detail: string) => new DomainError('forbidden', detail),
  preconditionFailed: (detail: string, extra: Record<string, unknown>) =>
    new DomainError('precondition_failed', detail, undefined, extra),
};
