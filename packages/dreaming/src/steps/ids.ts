import { createHash } from 'node:crypto'

/** A short stable id from its parts (sha256, hex, 24 characters). */
export function stableId(prefix: string, ...parts: readonly (string | number)[]): string {
  const hash = createHash('sha256').update(parts.map(String).join('\u0000')).digest('hex').slice(0, 24)
  return `${prefix}_${hash}`
}

/** Hash of an embedded text, so an unchanged text is never embedded twice. */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32)
}
