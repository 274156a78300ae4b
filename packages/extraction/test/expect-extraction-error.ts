import { expect } from 'vitest'
import { ExtractionError, type ExtractionErrorCode } from '../src/errors'

/** Awaits `pending`, expects it to fail with an ExtractionError (of `code`, when given), and returns the error. */
export async function expectExtractionError(
  pending: Promise<unknown>,
  code?: ExtractionErrorCode,
): Promise<ExtractionError> {
  const error = await pending.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(ExtractionError)
  if (code !== undefined) expect((error as ExtractionError).code).toBe(code)
  return error as ExtractionError
}
