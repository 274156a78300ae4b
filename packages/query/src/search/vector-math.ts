/** Cosine similarity of two vectors of equal length (0 when either is all zeros or lengths differ). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length || a.length === 0) return 0
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!
    const y = b[i]!
    dot += x * y
    na += x * x
    nb += y * y
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb)
}

/** Reads a little-endian Float32 BLOB (copying, so alignment never matters). */
export function blobToVector(blob: Uint8Array): Float32Array {
  const out = new Float32Array(Math.floor(blob.byteLength / 4))
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength)
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true)
  return out
}
