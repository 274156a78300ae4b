/** The statuses of the inspector's expected failures. */
export type FailureStatus = 400 | 401 | 403 | 404 | 413

/** An expected failure the inspector shows as a page with this status. */
export class InspectorError extends Error {
  override readonly name = 'InspectorError'
  constructor(
    readonly status: FailureStatus,
    message: string,
  ) {
    super(message)
  }
}

/** The status and message of an error thrown while answering, or null when it is a bug (shown as a 500). */
export function expectedFailure(error: unknown): { status: FailureStatus; message: string } | null {
  if (error instanceof InspectorError) return { status: error.status, message: error.message }
  if (error instanceof Error && (error.name === 'HyMemError' || error.name === 'StoreError')) {
    const code = (error as { code?: unknown }).code
    if (code === 'INVALID_INPUT') return { status: 400, message: error.message }
    if (code === 'NOT_FOUND') return { status: 404, message: error.message }
  }
  return null
}
