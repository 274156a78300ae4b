import { createHash } from 'node:crypto'

/** Hash of an embedded text (vector rows record it, so unchanged texts are never embedded twice). */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32)
}
