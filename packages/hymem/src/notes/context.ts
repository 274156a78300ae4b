import type { Store } from '@hymem/core-store'
import type { EmbeddingClient } from '@hymem/extraction'
import { HyMemError } from '../errors'
import type { HyMemLog } from '../log'
import type { NotesConfig } from './types'

/** What the notes functions need from the facade. */
export interface NotesContext {
  readonly store: Store
  readonly embeddings: EmbeddingClient | null
  readonly config: NotesConfig
  readonly log: HyMemLog
  /** Whether searches are written to `search_log`. */
  readonly searchLog: boolean
}

const MAX_DESCRIPTION = 1_000
const MAX_CONTENT = 100_000

export function requireText(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new HyMemError('INVALID_INPUT', `${field} must be a non-empty string`)
  }
  if (value.length > max) throw new HyMemError('INVALID_INPUT', `${field} is longer than ${max} characters`)
  return value.trim()
}

export function requireDescription(value: unknown): string {
  const text = requireText(value, 'description', MAX_DESCRIPTION)
  if (/[\r\n]/.test(text)) throw new HyMemError('INVALID_INPUT', 'description must be one line')
  return text
}

export function requireContent(value: unknown): string {
  return requireText(value, 'content', MAX_CONTENT)
}

export function optionalNumber(value: unknown, field: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new HyMemError('INVALID_INPUT', `${field} must be a number from ${min} to ${max}`)
  }
  return value
}

export function optionalInteger(value: unknown, field: string, min: number, max: number): number | undefined {
  const number = optionalNumber(value, field, min, max)
  if (number !== undefined && !Number.isInteger(number)) {
    throw new HyMemError('INVALID_INPUT', `${field} must be a whole number from ${min} to ${max}`)
  }
  return number
}

export function optionalObject(value: unknown, field: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HyMemError('INVALID_INPUT', `${field} must be a JSON object`)
  }
  return value as Record<string, unknown>
}

export function optionalId(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null
  if (typeof value !== 'string' || value.trim() === '' || value.length > 256) {
    throw new HyMemError('INVALID_INPUT', `${field} must be a non-empty string of at most 256 characters`)
  }
  return value
}

/** Embeds texts with the configured client; a provider failure surfaces as a `log` warning plus null. */
export async function embedOrNull(
  context: NotesContext,
  texts: readonly string[],
  what: string,
): Promise<Float32Array[] | null> {
  if (!context.embeddings || texts.length === 0) return null
  try {
    return await context.embeddings.embed(texts)
  } catch (error) {
    context.log({ kind: 'embed-failed', level: 'warn', what, message: (error as Error).message })
    return null
  }
}
