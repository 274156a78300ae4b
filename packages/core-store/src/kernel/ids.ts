import { randomBytes } from 'node:crypto'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'

/** A 21-character URL-safe random id, the shape Honcho uses for message and conclusion ids. */
export function randomId(size = 21): string {
  const bytes = randomBytes(size)
  let id = ''
  for (const byte of bytes) id += ALPHABET[byte & 63]
  return id
}
