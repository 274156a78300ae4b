/**
 * An expected stop: bad input, a missing file, a failed check. The entry point prints `message` (one line,
 * saying how to fix it) to stderr and exits with `exitCode`, never with a stack trace.
 */
export class ExitError extends Error {
  override readonly name = 'ExitError'
  readonly exitCode: number

  constructor(exitCode: number, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.exitCode = exitCode
  }
}

/** Exit codes: 0 success, 1 failure, 2 usage (unknown command, bad flag, bad argument). */
export const EXIT_OK = 0
export const EXIT_FAILURE = 1
export const EXIT_USAGE = 2
