/** Machine-readable reason of an {@link ExtractionError}. */
export type ExtractionErrorCode =
  | 'AUTH'
  | 'UNREACHABLE'
  | 'MODEL_NOT_FOUND'
  | 'RATE_LIMITED'
  | 'TIMEOUT'
  | 'BAD_RESPONSE'
  | 'BAD_REQUEST'
  | 'SERVER_ERROR'
  | 'ABORTED'
  | 'MISSING_DEPENDENCY'
  | 'INVALID_INPUT'

/**
 * The one error class of `@hymem/extraction`. `message` says what to do; `cause` keeps the original error.
 */
export class ExtractionError extends Error {
  override readonly name = 'ExtractionError'
  readonly code: ExtractionErrorCode
  /** HTTP status of the provider answer, when there was one. */
  readonly status: number | undefined
  constructor(code: ExtractionErrorCode, message: string, options?: { cause?: unknown; status?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.status = options?.status
  }
}

/** Throws `ABORTED` when the signal is already aborted. */
export function _throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw new ExtractionError('ABORTED', 'the operation was aborted', { cause: signal.reason })
}
