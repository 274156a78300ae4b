/**
 * The few Protocol Buffers encodings an ONNX model needs: varints (int64 included), floats, length-delimited
 * bytes and nested messages. Fields are appended in call order; `finish()` returns the message bytes.
 */
export class ProtoWriter {
  private readonly parts: Uint8Array[] = []
  private size = 0

  private push(bytes: Uint8Array): this {
    this.parts.push(bytes)
    this.size += bytes.length
    return this
  }

  private tag(field: number, wireType: number): void {
    this.push(varint(BigInt((field << 3) | wireType)))
  }

  /** An int32/int64/enum field; negative numbers take ten bytes, as protobuf's int64 does. */
  int(field: number, value: number | bigint): this {
    this.tag(field, 0)
    return this.push(varint(BigInt.asUintN(64, BigInt(value))))
  }

  /** One field per value (the unpacked repeated form, which every protobuf reader accepts). */
  ints(field: number, values: readonly (number | bigint)[]): this {
    for (const v of values) this.int(field, v)
    return this
  }

  float(field: number, value: number): this {
    this.tag(field, 5)
    const bytes = new Uint8Array(4)
    new DataView(bytes.buffer).setFloat32(0, value, true)
    return this.push(bytes)
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, 2)
    this.push(varint(BigInt(value.length)))
    return this.push(value)
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value))
  }

  message(field: number, build: (w: ProtoWriter) => void): this {
    const inner = new ProtoWriter()
    build(inner)
    return this.bytes(field, inner.finish())
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size)
    let at = 0
    for (const part of this.parts) {
      out.set(part, at)
      at += part.length
    }
    return out
  }
}

function varint(value: bigint): Uint8Array {
  const out: number[] = []
  let v = value
  do {
    let byte = Number(v & 0x7fn)
    v >>= 7n
    if (v > 0n) byte |= 0x80
    out.push(byte)
  } while (v > 0n)
  return Uint8Array.from(out)
}
