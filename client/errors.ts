/** What went wrong, in the two kinds the action treats differently (see `fail-on-error`). */
export type ApiErrorKind =
  /** The service could not be reached or did not answer usefully after every retry: an outage. */
  | 'outage'
  /** The service answered with a 4xx: a mistake in the request, the key or the inputs. */
  | 'rejected';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly details: {
      status?: number;
      code?: string;
      detail?: string;
      requestId?: string;
      errors?: { pointer: string; detail: string }[];
      /** A sharded scan refused completion: the shards that have not reported. */
      missingShards?: number[];
      /** A part was refused because the scan is complete already. */
      scanComplete?: boolean;
      attempts: number;
    },
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
