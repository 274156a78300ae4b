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

/**
 * An error whose `code` is a stable string callers switch on; each HyMem package's one error family
 * (`StoreError`, `DreamError`, `QueryError`, `HyMemError`) extends it with its own codes and name.
 */
export class CodedError<Code extends string> extends Error {
  readonly code: Code

  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
  }
}

/** The one error family of `@hymem/core-store`; messages say what to do. */
export class StoreError extends CodedError<StoreErrorCode> {
  override readonly name = 'StoreError'
}
