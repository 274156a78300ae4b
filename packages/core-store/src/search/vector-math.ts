/** Float32 little-endian bytes of a vector, without copying. */
export function vectorBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)
}

/** A vector from its stored bytes (copied, since SQLite buffers need not be 4-byte aligned). */
export function blobVector(blob: Uint8Array): Float32Array {
  const copy = new Uint8Array(blob.byteLength)
  copy.set(blob)
  return new Float32Array(copy.buffer, 0, blob.byteLength / 4)
}

export function norm(vector: Float32Array): number {
  let sum = 0
  for (let i = 0; i < vector.length; i++) {
    const x = vector[i] as number
    sum += x * x
  }
  return Math.sqrt(sum)
}

/**
 * Cosine distance (1 − cosine similarity) between a query with precomputed norm and stored bytes, read in
 * place through a DataView so the scan allocates nothing per row.
 */
export function cosineDistanceToBlob(query: Float32Array, queryNorm: number, blob: Uint8Array): number {
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength)
  let dot = 0
  let sum = 0
  for (let i = 0; i < query.length; i++) {
    const x = view.getFloat32(i * 4, true)
    dot += (query[i] as number) * x
    sum += x * x
  }
  const denominator = queryNorm * Math.sqrt(sum)
  return denominator === 0 ? 1 : 1 - dot / denominator
}
