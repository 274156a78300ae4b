import { maskSecrets } from '@hymem/core-store'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { HonchoHttpError } from '../errors'

/**
 * The ONE table from error codes to HTTP statuses: ours, the store's (`StoreError`) and the facade's
 * (`HyMemError`), keyed `family:code`. Anything not listed is a bug and answers 500.
 */
const STATUS_BY_CODE: Readonly<Record<string, ContentfulStatusCode>> = {
  'honcho:BAD_REQUEST': 400,
  'honcho:UNAUTHORIZED': 401,
  'honcho:NOT_FOUND': 404,
  'honcho:CONFLICT': 409,
  'honcho:PAYLOAD_TOO_LARGE': 413,
  'honcho:UNSUPPORTED_MEDIA_TYPE': 415,
  'honcho:VALIDATION': 422,
  'store:NOT_FOUND': 404,
  'store:CONFLICT': 409,
  'store:INVALID_INPUT': 422,
  'store:CLOSED': 503,
  'store:UNREACHABLE': 503,
  'store:TIMEOUT': 503,
  'hymem:NOT_FOUND': 404,
  'hymem:INVALID_INPUT': 422,
  'hymem:CLOSED': 503,
}

const FAMILY_BY_NAME: Readonly<Record<string, string>> = {
  HonchoHttpError: 'honcho',
  StoreError: 'store',
  HyMemError: 'hymem',
}

export const UNEXPECTED = 'An unexpected error occurred'

/** Status and Honcho error body for any thrown value; `known` is false for bugs (logged, 500, no details). */
export function errorResponse(error: unknown): {
  status: ContentfulStatusCode
  body: unknown
  known: boolean
} {
  if (error instanceof HonchoHttpError) {
    const status = STATUS_BY_CODE[`honcho:${error.code}`] ?? 500
    return { status, body: { detail: error.issues ?? error.message }, known: true }
  }
  if (error instanceof HTTPException) {
    return {
      status: error.status as ContentfulStatusCode,
      body: { detail: error.message || 'Error' },
      known: true,
    }
  }
  if (error instanceof Error) {
    const family = FAMILY_BY_NAME[error.name]
    const code = (error as { code?: unknown }).code
    const status = family && typeof code === 'string' ? STATUS_BY_CODE[`${family}:${code}`] : undefined
    if (status) return { status, body: { detail: maskSecrets(error.message) }, known: true }
  }
  return { status: 500, body: { detail: UNEXPECTED }, known: false }
}
