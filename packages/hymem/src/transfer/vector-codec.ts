import type { BackupVector } from '@hymem/core-store'
import type { VectorRecord } from './records'

/** A stored vector as a dump line carries it: Float32 little-endian bytes in base64. */
export function encodeVector(vector: BackupVector): VectorRecord {
  const bytes = Buffer.from(vector.vector.buffer, vector.vector.byteOffset, vector.vector.byteLength)
  return { model: vector.model, textHash: vector.textHash, data: bytes.toString('base64') }
}

/** The vector of a dump line (copied into an aligned buffer). */
export function decodeVector(record: VectorRecord): Float32Array {
  const bytes = Buffer.from(record.data, 'base64')
  const copy = new Uint8Array(bytes.byteLength - (bytes.byteLength % 4))
  copy.set(bytes.subarray(0, copy.byteLength))
  return new Float32Array(copy.buffer)
}
