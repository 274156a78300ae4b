const ABORT_CODES = new Set([
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ABORT_ERR',
])

/**
 * Whether an error only says that the client went away (closed the connection, aborted the upload): an
 * expected event, to log without a stack and never to answer as a server failure.
 */
export function isClientAbort(error: unknown, request?: Request): boolean {
  if (request?.signal.aborted) return true
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    const code = (cause as NodeJS.ErrnoException).code
    if (cause.name === 'AbortError' || (code !== undefined && ABORT_CODES.has(code))) return true
    if (cause.message === 'aborted' || cause.message === 'Request aborted') return true
    cause = cause.cause
  }
  return false
}
