import { CodedError } from '@hymem/core-store'
/** What went wrong in a dreaming cycle, as a stable string callers can switch on. */
export type DreamErrorCode = 'INVALID_INPUT' | 'ABORTED'

/** The one error family of `@hymem/dreaming`; `cause` carries the underlying error. */
export class DreamError extends CodedError<DreamErrorCode> {
  override readonly name = 'DreamError'
}

/** Throws `DreamError('ABORTED')` when the signal has fired. */
export function _throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new DreamError('ABORTED', 'the dream was aborted', { cause: signal.reason })
}

/** Whether `error` is (or wraps) an abort. */
export function _isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  if (error instanceof DreamError && error.code === 'ABORTED') return true
  if (signal?.aborted) return true
  return (error as { name?: string } | null)?.name === 'AbortError'
}
