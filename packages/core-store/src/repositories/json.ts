import { StoreError } from '../kernel/errors'
import type { JsonObject } from './types'

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Serialises an optional JSON object argument, refusing anything that is not a plain object. */
export function objectText(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined
  if (!isJsonObject(value)) throw new StoreError('INVALID_INPUT', `${field} must be a JSON object`)
  try {
    return JSON.stringify(value)
  } catch (error) {
    throw new StoreError('INVALID_INPUT', `${field} is not serialisable as JSON`, { cause: error })
  }
}

export function parseObject(text: string): JsonObject {
  const value: unknown = JSON.parse(text)
  return isJsonObject(value) ? value : {}
}

export function parseArray<T = unknown>(text: string): T[] {
  const value: unknown = JSON.parse(text)
  return Array.isArray(value) ? (value as T[]) : []
}

export function requireId(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new StoreError('INVALID_INPUT', `${field} must be a non-empty string`)
  }
  return value
}
