import { ProtoWriter } from './protobuf'

/** ONNX tensor element types used here (TensorProto.DataType). */
export const ONNX_FLOAT = 1
export const ONNX_UINT8 = 2
export const ONNX_INT8 = 3
export const ONNX_INT64 = 7

type Attribute = number | readonly number[] | { float: number }

interface Node {
  op: string
  inputs: readonly string[]
  outputs: readonly string[]
  attributes: Readonly<Record<string, Attribute>>
}

interface Initializer {
  name: string
  dims: readonly number[]
  type: number
  data: Uint8Array
}

interface ValueInfo {
  name: string
  type: number
  /** A number is a fixed dimension, a string a symbolic one (e.g. 'batch'). */
  shape: readonly (number | string)[]
}

/** The ONNX operator set the graphs are written against (LayerNormalization needs 17). */
const OPSET = 17
const IR_VERSION = 8

// AttributeProto.AttributeType
const ATTR_FLOAT = 1
const ATTR_INT = 2
const ATTR_INTS = 7

/**
 * Builds an ONNX model (a single graph in the default domain) in memory, to be handed to a runtime as bytes.
 * Names are unique: `node()` returns the name of its output, so graphs read as expressions.
 */
export class OnnxGraph {
  private readonly nodes: Node[] = []
  private readonly initializers: Initializer[] = []
  private readonly inputs: ValueInfo[] = []
  private readonly outputs: ValueInfo[] = []
  private counter = 0

  input(name: string, type: number, shape: ValueInfo['shape']): string {
    this.inputs.push({ name, type, shape })
    return name
  }

  output(name: string, type: number, shape: ValueInfo['shape']): void {
    this.outputs.push({ name, type, shape })
  }

  floats(name: string, dims: readonly number[], data: Float32Array): string {
    this.initializers.push({ name, dims, type: ONNX_FLOAT, data: bytesOf(data) })
    return name
  }

  int8s(name: string, dims: readonly number[], data: Int8Array): string {
    this.initializers.push({
      name,
      dims,
      type: ONNX_INT8,
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    })
    return name
  }

  uint8Scalar(name: string, value: number): string {
    this.initializers.push({ name, dims: [], type: ONNX_UINT8, data: Uint8Array.of(value) })
    return name
  }

  int64s(name: string, values: readonly number[]): string {
    const data = BigInt64Array.from(values.map((v) => BigInt(v)))
    this.initializers.push({ name, dims: [values.length], type: ONNX_INT64, data: bytesOf(data) })
    return name
  }

  scalar(name: string, value: number): string {
    this.initializers.push({ name, dims: [], type: ONNX_FLOAT, data: bytesOf(Float32Array.of(value)) })
    return name
  }

  /** Adds a node and returns its output's name; `output` names it, otherwise a fresh name is made. */
  node(op: string, inputs: readonly string[], attributes: Node['attributes'] = {}, output?: string): string {
    return this.nodeOutputs(op, inputs, 1, attributes, output)[0]!
  }

  /** Adds a node with `count` outputs and returns their fresh names (the first is `output` if given). */
  nodeOutputs(
    op: string,
    inputs: readonly string[],
    count: number,
    attributes: Node['attributes'] = {},
    output?: string,
  ): string[] {
    const id = this.counter++
    const outputs = Array.from({ length: count }, (_, k) =>
      k === 0 && output !== undefined ? output : `${op.toLowerCase()}_${id}_${k}`,
    )
    this.nodes.push({ op, inputs, outputs, attributes })
    return outputs
  }

  /** The serialized ModelProto. */
  encode(): Uint8Array {
    return new ProtoWriter()
      .int(1, IR_VERSION)
      .string(2, 'hymem')
      .message(7, (g) => {
        for (const n of this.nodes) g.message(1, (w) => writeNode(w, n))
        g.string(2, 'main')
        for (const t of this.initializers) g.message(5, (w) => writeInitializer(w, t))
        for (const v of this.inputs) g.message(11, (w) => writeValueInfo(w, v))
        for (const v of this.outputs) g.message(12, (w) => writeValueInfo(w, v))
      })
      .message(8, (o) => o.string(1, '').int(2, OPSET))
      .finish()
  }
}

function bytesOf(array: Float32Array | BigInt64Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength)
}

function writeNode(w: ProtoWriter, n: Node): void {
  for (const i of n.inputs) w.string(1, i)
  for (const o of n.outputs) w.string(2, o)
  w.string(4, n.op)
  for (const [name, value] of Object.entries(n.attributes)) {
    w.message(5, (a) => {
      a.string(1, name)
      if (typeof value === 'number') a.int(3, value).int(20, ATTR_INT)
      else if ('float' in value) a.float(2, value.float).int(20, ATTR_FLOAT)
      else a.ints(8, value).int(20, ATTR_INTS)
    })
  }
}

function writeInitializer(w: ProtoWriter, t: Initializer): void {
  w.ints(1, t.dims).int(2, t.type).string(8, t.name).bytes(9, t.data)
}

function writeValueInfo(w: ProtoWriter, v: ValueInfo): void {
  w.string(1, v.name).message(2, (type) =>
    type.message(1, (tensor) => {
      tensor.int(1, v.type)
      tensor.message(2, (shape) => {
        for (const d of v.shape) {
          shape.message(1, (dim) => (typeof d === 'number' ? dim.int(1, d) : dim.string(2, d)))
        }
      })
    }),
  )
}
