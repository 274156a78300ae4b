/** What went wrong in a Honcho request, as a stable string; `onError` maps each to one HTTP status. */
export type HonchoHttpErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'VALIDATION'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'

/** One issue of a 422 validation list, in FastAPI's shape. */
export interface ValidationIssue {
  readonly type: string
  readonly loc: readonly (string | number)[]
  readonly msg: string
  readonly input: unknown
  readonly ctx?: Record<string, unknown>
}

/** The one error family of `@hymem/honcho-http`. `issues` turns a 422 into FastAPI's list-shaped detail. */
export class HonchoHttpError extends Error {
  override readonly name = 'HonchoHttpError'
  readonly code: HonchoHttpErrorCode
  readonly issues: readonly ValidationIssue[] | undefined

  constructor(
    code: HonchoHttpErrorCode,
    message: string,
    options?: { cause?: unknown; issues?: readonly ValidationIssue[] },
  ) {
    super(message, options)
    this.code = code
    this.issues = options?.issues
  }
}

export function notFound(what: string, id: string): HonchoHttpError {
  return new HonchoHttpError('NOT_FOUND', `${what} ${id} not found`)
}
