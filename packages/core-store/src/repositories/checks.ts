import { StoreError } from '../kernel/errors'

/** Refuses anything but an integer (ids, message ids, counts). */
export function requireInteger(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new StoreError('INVALID_INPUT', `${field} must be an integer`)
  }
  return value
}

/** Refuses anything but an array of integers. */
export function requireIntegers(values: unknown, field: string): readonly number[] {
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'number' && Number.isSafeInteger(v))) {
    throw new StoreError('INVALID_INPUT', `${field} must be an array of integers`)
  }
  return values as readonly number[]
}

/** Refuses anything but a non-empty string (names, kinds, ISO times). */
export function requireText(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new StoreError('INVALID_INPUT', `${field} must be a non-empty string`)
  }
  return value
}

/** An optional text column: `undefined` and `null` store NULL, anything else must be a string. */
export function optionalText(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null
  if (typeof value !== 'string') throw new StoreError('INVALID_INPUT', `${field} must be a string or null`)
  return value
}

/** Refuses anything but a finite number (confidences, thresholds). */
export function requireNumber(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new StoreError('INVALID_INPUT', `${field} must be a finite number`)
  return value
}

/** Refuses anything but an integer ≥ 0 (limits, counts). */
export function requireLimit(value: unknown, field = 'limit'): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new StoreError('INVALID_INPUT', `${field} must be an integer ≥ 0`)
  return value
}
