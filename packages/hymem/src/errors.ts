import { CodedError } from '@hymem/core-store'
/** What went wrong in the facade, as a stable string callers can switch on (servers map it to HTTP statuses). */
export type HyMemErrorCode =
  | 'INVALID_INPUT'
  | 'NOT_FOUND'
  | 'CONFIG'
  | 'LLM_KEY_REJECTED'
  | 'EMBEDDING_KEY_REJECTED'
  | 'IMPORT_FAILED'
  | 'CLOSED'
  /** The dream worker thread crashed or could not run the cycle (it is restarted with back-off). */
  | 'DREAM_WORKER'

/** The one error family of `hymem`; `message` says what to do and `cause` keeps the underlying error. */
export class HyMemError extends CodedError<HyMemErrorCode> {
  override readonly name = 'HyMemError'
}

const TRANSLATED = new Set(['DreamError', 'QueryError'])

/**
 * Re-throws the caller-facing failures of the dreaming and query layers (`INVALID_INPUT`, `NOT_FOUND`) as a
 * `HyMemError` with the same code and the original as `cause`, so servers map one error family (plus
 * `StoreError`). Everything else passes through unchanged.
 */
export function _asHyMemError(error: unknown): unknown {
  if (!(error instanceof Error) || !TRANSLATED.has(error.name)) return error
  const code = (error as { code?: unknown }).code
  if (code === 'INVALID_INPUT' || code === 'NOT_FOUND')
    return new HyMemError(code, error.message, { cause: error })
  return error
}
