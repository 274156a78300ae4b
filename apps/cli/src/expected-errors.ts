import { StoreError } from '@hymem/core-store'
import { ExtractionError } from '@hymem/extraction'
import { HyMemError } from 'hymem'

/**
 * The packages' error classes describe conditions a user can fix (an unwritable root, a newer schema, a
 * rejected key): those print as one line. Returns null for anything else, which is a bug.
 */
export function describeExpectedError(error: unknown): string | null {
  if (error instanceof StoreError || error instanceof ExtractionError || error instanceof HyMemError) {
    return error.message
  }
  return null
}
