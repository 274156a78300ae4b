/** One tensor of a safetensors file, up-cast to float32. */
export interface FloatTensor {
  readonly shape: readonly number[]
  readonly data: Float32Array
}

interface Entry {
  dtype: string
  shape: number[]
  data_offsets: [number, number]
}

/**
 * Reads the floating-point tensors of a safetensors file (an 8-byte little-endian header length, a JSON
 * header, then the raw data), converting F16 and F32 tensors to float32; other dtypes are skipped.
 */
export function readSafetensors(file: Uint8Array): Map<string, FloatTensor> {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength)
  const headerLength = Number(view.getBigUint64(0, true))
  const header = JSON.parse(new TextDecoder().decode(file.subarray(8, 8 + headerLength))) as Record<
    string,
    Entry | Record<string, string>
  >
  const base = 8 + headerLength
  const out = new Map<string, FloatTensor>()
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') continue
    const {
      dtype,
      shape,
      data_offsets: [start, end],
    } = entry as Entry
    const bytes = file.subarray(base + start, base + end)
    if (dtype === 'F16') out.set(name, { shape, data: halfToFloat(bytes) })
    else if (dtype === 'F32') out.set(name, { shape, data: new Float32Array(bytes.slice().buffer) })
  }
  return out
}

/** IEEE 754 half precision (little-endian) to float32. */
function halfToFloat(bytes: Uint8Array): Float32Array {
  const count = bytes.length >> 1
  const out = new Float32Array(count)
  const bits = new Uint32Array(out.buffer)
  for (let i = 0; i < count; i++) {
    const h = bytes[2 * i]! | (bytes[2 * i + 1]! << 8)
    const sign = (h & 0x8000) << 16
    const exponent = (h >> 10) & 0x1f
    const mantissa = h & 0x3ff
    if (exponent === 0x1f) {
      bits[i] = sign | 0x7f800000 | (mantissa << 13)
    } else if (exponent !== 0) {
      bits[i] = sign | ((exponent + 112) << 23) | (mantissa << 13)
    } else if (mantissa === 0) {
      bits[i] = sign
    } else {
      // Subnormal half: a normal float32 with the mantissa shifted into place.
      let m = mantissa
      let e = 113
      while ((m & 0x400) === 0) {
        m <<= 1
        e -= 1
      }
      bits[i] = sign | (e << 23) | ((m & 0x3ff) << 13)
    }
  }
  return out
}
