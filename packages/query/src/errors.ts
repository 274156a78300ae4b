import { CodedError } from '@hymem/core-store'
/** What went wrong in `@hymem/query`, as a stable string callers can switch on. */
export type QueryErrorCode = 'INVALID_INPUT' | 'INVALID_CONFIG' | 'ABORTED'

/** The one error family of `@hymem/query`; `cause` is passed through. */
export class QueryError extends CodedError<QueryErrorCode> {
  override readonly name = 'QueryError'
}

/** Throws `QueryError('ABORTED')` when the signal has fired. */
export function _throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new QueryError('ABORTED', 'augment was aborted', { cause: signal.reason })
}
