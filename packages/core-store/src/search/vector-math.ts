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

/** Cosine similarity of two vectors: 0 when their lengths differ or either has no direction. */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length || a.length === 0) return 0
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number
    const y = b[i] as number
    dot += x * y
    na += x * x
    nb += y * y
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb)
}
