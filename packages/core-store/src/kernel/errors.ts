/** What went wrong, as a stable string callers can switch on. */
export type StoreErrorCode =
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'INVALID_INPUT'
  | 'NOT_SQLITE'
  | 'NOT_WRITABLE'
  | 'SCHEMA_TOO_NEW'
  | 'MIGRATION_FAILED'
  | 'VECTOR_MISMATCH'
  | 'VECTOR_UNAVAILABLE'
  | 'CLOSED'
  | 'UNREACHABLE'
  | 'AUTH_FAILED'
  | 'MISSING_DEPENDENCY'
  | 'TIMEOUT'
  | 'UNSUPPORTED'

/** The one error family of `@hymem/core-store`; messages say what to do. */
export class StoreError extends Error {
  override readonly name = 'StoreError'
  readonly code: StoreErrorCode

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
  }
}
