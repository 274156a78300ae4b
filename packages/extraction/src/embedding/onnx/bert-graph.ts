import { ONNX_FLOAT, ONNX_INT64, ONNX_UINT8, OnnxGraph } from './graph'
import type { FloatTensor } from './safetensors'

/** The shape of a BERT encoder, as in its Hugging Face `config.json`. */
export interface BertConfig {
  hidden_size: number
  num_attention_heads: number
  num_hidden_layers: number
  layer_norm_eps: number
}

/**
 * Names of the graph's inputs and output. `input_ids` [batch, seq] and `position_ids` [seq] are int64;
 * `attention_bias` [batch, 1, 1, seq] is 0 on tokens and a large negative number on padding; `pool_mask`
 * [batch, seq, 1] is 1 on tokens and 0 on padding. `pooled` [batch, hidden] is the sum of the last hidden
 * states over the tokens (divide by the token count for the mean; for unit vectors, just normalise).
 */
export const BERT_IO = {
  inputIds: 'input_ids',
  positionIds: 'position_ids',
  attentionBias: 'attention_bias',
  poolMask: 'pool_mask',
  pooled: 'pooled',
} as const

/**
 * Symmetric int8 quantisation per output column of a [in, out] matrix: `q[i][o] * scale[o]` ≈ `w[i][o]`.
 */
const ACTIVATION_LEVELS = 127
const ACTIVATION_ZERO_POINT = 128

function quantizeColumns(w: Float32Array, rows: number, cols: number) {
  const scale = new Float32Array(cols)
  for (let i = 0; i < w.length; i++) {
    const c = i % cols
    scale[c] = Math.max(scale[c]!, Math.abs(w[i]!))
  }
  for (let c = 0; c < cols; c++) scale[c] = scale[c]! / 127 || 1
  const q = new Int8Array(rows * cols)
  for (let i = 0; i < w.length; i++) q[i] = Math.round(w[i]! / scale[i % cols]!)
  return { q, scale }
}

/** A Linear weight is stored [out, in]; MatMul wants [in, out]. */
function transposed(t: FloatTensor): Float32Array {
  const [rows, cols] = t.shape as [number, number]
  const out = new Float32Array(rows * cols)
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) out[c * rows + r] = t.data[r * cols + c]!
  }
  return out
}

/**
 * The ONNX graph of a BERT encoder with masked sum pooling, from its safetensors weights (names as
 * `transformers`' `BertModel` writes them). Token type 0 throughout; GELU is the exact (erf) form.
 */
export function bertGraph(
  config: BertConfig,
  weights: ReadonlyMap<string, FloatTensor>,
  options: { int8?: boolean } = {},
): Uint8Array {
  const g = new OnnxGraph()
  const hidden = config.hidden_size
  const heads = config.num_attention_heads
  const headSize = hidden / heads
  const tensor = (name: string): FloatTensor => {
    const t = weights.get(name)
    if (!t) throw new Error(`the weights have no tensor ${name}`)
    return t
  }
  const param = (name: string) => {
    const t = tensor(name)
    return g.floats(name, t.shape, t.data)
  }
  const quant = options.int8
    ? {
        zeroPoint: g.uint8Scalar('activation_zero_point', ACTIVATION_ZERO_POINT),
        zeroPointF: g.scalar('activation_zero_point_f', ACTIVATION_ZERO_POINT),
        levels: g.scalar('activation_levels', ACTIVATION_LEVELS),
        floor: g.scalar('activation_floor', 1e-12),
      }
    : null
  // The query, key and value projections read the same input: it is quantised once for the three.
  const quantizedInputs = new Map<string, { xq: string; tokenScale: string }>()
  const quantized = (x: string, q: NonNullable<typeof quant>) => {
    const known = quantizedInputs.get(x)
    if (known) return known
    const tokenScale = g.node('Div', [
      g.node('Max', [g.node('ReduceMax', [g.node('Abs', [x])], { axes: [-1], keepdims: 1 }), q.floor]),
      q.levels,
    ])
    const xq = g.node(
      'Cast',
      [g.node('Add', [g.node('Round', [g.node('Div', [x, tokenScale])]), q.zeroPointF])],
      {
        to: ONNX_UINT8,
      },
    )
    const made = { xq, tokenScale }
    quantizedInputs.set(x, made)
    return made
  }
  const linear = (x: string, prefix: string) => {
    const w = tensor(`${prefix}.weight`)
    const [rows, cols] = [w.shape[1]!, w.shape[0]!]
    const bias = param(`${prefix}.bias`)
    if (!quant) {
      const weight = g.floats(`${prefix}.weight`, [rows, cols], transposed(w))
      return g.node('Add', [g.node('MatMul', [x, weight]), bias])
    }
    // Weights quantised ahead of time (int8, per column), activations per token at run time (uint8 around
    // 128, one scale per token, so a text's vector never depends on the other texts of its batch).
    const { q, scale } = quantizeColumns(transposed(w), rows, cols)
    const { xq, tokenScale } = quantized(x, quant)
    const product = g.node('MatMulInteger', [
      xq,
      g.int8s(`${prefix}.weight_q`, [rows, cols], q),
      quant.zeroPoint,
    ])
    const scaled = g.node('Mul', [
      g.node('Mul', [g.node('Cast', [product], { to: ONNX_FLOAT }), tokenScale]),
      g.floats(`${prefix}.weight_scale`, [cols], scale),
    ])
    return g.node('Add', [scaled, bias])
  }
  const layerNorm = (x: string, prefix: string) =>
    g.node('LayerNormalization', [x, param(`${prefix}.weight`), param(`${prefix}.bias`)], {
      axis: -1,
      epsilon: { float: config.layer_norm_eps },
    })

  const ids = g.input(BERT_IO.inputIds, ONNX_INT64, ['batch', 'seq'])
  const positions = g.input(BERT_IO.positionIds, ONNX_INT64, ['seq'])
  const bias = g.input(BERT_IO.attentionBias, ONNX_FLOAT, ['batch', 1, 1, 'seq'])
  const poolMask = g.input(BERT_IO.poolMask, ONNX_FLOAT, ['batch', 'seq', 1])

  const tokenType = tensor('embeddings.token_type_embeddings.weight')
  const embedded = g.node('Add', [
    g.node('Add', [
      g.node('Gather', [param('embeddings.word_embeddings.weight'), ids]),
      g.node('Gather', [param('embeddings.position_embeddings.weight'), positions]),
    ]),
    g.floats('token_type_0', [hidden], tokenType.data.subarray(0, hidden)),
  ])
  let x = layerNorm(embedded, 'embeddings.LayerNorm')

  const splitHeads = g.int64s('split_heads', [0, 0, heads, headSize])
  const mergeHeads = g.int64s('merge_heads', [0, 0, hidden])
  const scale = g.scalar('attention_scale', 1 / Math.sqrt(headSize))
  const half = g.scalar('half', 0.5)
  const one = g.scalar('one', 1)
  const invSqrt2 = g.scalar('inv_sqrt2', Math.SQRT1_2)

  for (let layer = 0; layer < config.num_hidden_layers; layer++) {
    const p = `encoder.layer.${layer}`
    const heads4 = (t: string, perm: number[]) =>
      g.node('Transpose', [g.node('Reshape', [t, splitHeads])], { perm })
    const q = heads4(linear(x, `${p}.attention.self.query`), [0, 2, 1, 3])
    const k = heads4(linear(x, `${p}.attention.self.key`), [0, 2, 3, 1])
    const v = heads4(linear(x, `${p}.attention.self.value`), [0, 2, 1, 3])
    const scores = g.node('Add', [g.node('Mul', [g.node('MatMul', [q, k]), scale]), bias])
    const context = g.node('MatMul', [g.node('Softmax', [scores], { axis: -1 }), v])
    const merged = g.node('Reshape', [g.node('Transpose', [context], { perm: [0, 2, 1, 3] }), mergeHeads])
    const attended = layerNorm(
      g.node('Add', [linear(merged, `${p}.attention.output.dense`), x]),
      `${p}.attention.output.LayerNorm`,
    )
    const up = linear(attended, `${p}.intermediate.dense`)
    const gelu = g.node('Mul', [
      g.node('Mul', [up, half]),
      g.node('Add', [g.node('Erf', [g.node('Mul', [up, invSqrt2])]), one]),
    ])
    x = layerNorm(g.node('Add', [linear(gelu, `${p}.output.dense`), attended]), `${p}.output.LayerNorm`)
  }

  g.node(
    'ReduceSum',
    [g.node('Mul', [x, poolMask]), g.int64s('sequence_axis', [1])],
    { keepdims: 0 },
    BERT_IO.pooled,
  )
  g.output(BERT_IO.pooled, ONNX_FLOAT, ['batch', hidden])
  return g.encode()
}
