/** What went wrong in the facade, as a stable string callers can switch on (servers map it to HTTP statuses). */
export type HyMemErrorCode =
  | 'INVALID_INPUT'
  | 'NOT_FOUND'
  | 'CONFIG'
  | 'LLM_KEY_REJECTED'
  | 'EMBEDDING_KEY_REJECTED'
  | 'IMPORT_FAILED'
  | 'CLOSED'

/** The one error family of `hymem`; `message` says what to do and `cause` keeps the underlying error. */
export class HyMemError extends Error {
  override readonly name = 'HyMemError'
  readonly code: HyMemErrorCode

  constructor(code: HyMemErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
  }
}
