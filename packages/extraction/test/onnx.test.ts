import { describe, expect, it } from 'vitest'
import { ONNX_FLOAT, OnnxGraph } from '../src/embedding/onnx/graph'
import { loadOnnxRuntime } from '../src/embedding/onnx/runtime'
import { readSafetensors } from '../src/embedding/onnx/safetensors'
import { wordPieceTokenizer } from '../src/embedding/onnx/wordpiece'

describe('OnnxGraph', () => {
  it('writes a model ONNX Runtime loads and runs: x·W + b, layer-normalised, with a negative axis', async () => {
    const ort = await loadOnnxRuntime()
    const g = new OnnxGraph()
    const x = g.input('x', ONNX_FLOAT, ['batch', 2])
    const w = g.floats('w', [2, 3], Float32Array.of(1, 2, 3, 4, 5, 6))
    const b = g.floats('b', [3], Float32Array.of(0.5, -0.5, 0))
    const affine = g.node('Add', [g.node('MatMul', [x, w]), b], {}, 'affine')
    g.node(
      'LayerNormalization',
      [
        affine,
        g.floats('gamma', [3], Float32Array.of(1, 1, 1)),
        g.floats('beta', [3], Float32Array.of(0, 0, 0)),
      ],
      { axis: -1, epsilon: { float: 1e-6 } },
      'y',
    )
    g.output('affine', ONNX_FLOAT, ['batch', 3])
    g.output('y', ONNX_FLOAT, ['batch', 3])
    const session = await ort.InferenceSession.create(g.encode())
    const out = await session.run({ x: new ort.Tensor('float32', Float32Array.of(1, 0, 0, 2), [2, 2]) })
    expect(Array.from(out.affine!.data as Float32Array)).toEqual([1.5, 1.5, 3, 8.5, 9.5, 12])
    const y = Array.from(out.y!.data as Float32Array).slice(3)
    const row = [8.5, 9.5, 12]
    const mean = (8.5 + 9.5 + 12) / 3
    const sd = Math.sqrt(row.reduce((sum, v) => sum + (v - mean) ** 2, 0) / 3)
    for (const [i, v] of y.entries()) expect(v).toBeCloseTo((row[i]! - mean) / sd, 4)
  })
})

describe('readSafetensors', () => {
  it('reads F16 (normal, subnormal, zero, infinity) and F32 tensors and skips other dtypes', () => {
    const f16 = [0x3c00, 0xc000, 0x7bff, 0x0001, 0x8000, 0x7c00] // 1, -2, 65504, 2^-24, -0, +inf
    const header = JSON.stringify({
      __metadata__: { format: 'pt' },
      half: { dtype: 'F16', shape: [2, 3], data_offsets: [0, 12] },
      single: { dtype: 'F32', shape: [1], data_offsets: [12, 16] },
      ids: { dtype: 'I64', shape: [1], data_offsets: [16, 24] },
    })
    const head = new TextEncoder().encode(header)
    const file = new Uint8Array(8 + head.length + 24)
    const view = new DataView(file.buffer)
    view.setBigUint64(0, BigInt(head.length), true)
    file.set(head, 8)
    for (const [i, h] of f16.entries()) view.setUint16(8 + head.length + 2 * i, h, true)
    view.setFloat32(8 + head.length + 12, 0.25, true)
    const tensors = readSafetensors(file)
    expect([...tensors.keys()].sort()).toEqual(['half', 'single'])
    expect(tensors.get('half')!.shape).toEqual([2, 3])
    expect(Array.from(tensors.get('half')!.data)).toEqual([1, -2, 65504, 2 ** -24, -0, Infinity])
    expect(Array.from(tensors.get('single')!.data)).toEqual([0.25])
  })
})

describe('wordPieceTokenizer', () => {
  const vocab = [
    '[PAD]',
    '[UNK]',
    '[CLS]',
    '[SEP]',
    'hello',
    ',',
    'world',
    '!',
    'play',
    '##ing',
    '##s',
    '中',
    '文',
  ]
  const tokenizer = wordPieceTokenizer({
    model: {
      vocab: Object.fromEntries(vocab.map((piece, id) => [piece, id])),
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
    },
  })
  const pieces = (text: string, max = 64) => tokenizer.encode(text, max).map((id) => vocab[id])

  it('lowercases, strips accents, splits punctuation and CJK characters, and frames with CLS/SEP', () => {
    expect(pieces('Héllo,  WORLD!\u0000\t中文')).toEqual([
      '[CLS]',
      'hello',
      ',',
      'world',
      '!',
      '中',
      '文',
      '[SEP]',
    ])
  })

  it('splits words into the longest pieces and maps a word with no split to one UNK', () => {
    expect(pieces('playings plays xyz')).toEqual([
      '[CLS]',
      'play',
      '##ing',
      '##s',
      'play',
      '##s',
      '[UNK]',
      '[SEP]',
    ])
  })

  it('truncates to maxTokens, keeping SEP last', () => {
    expect(pieces('hello world hello world', 4)).toEqual(['[CLS]', 'hello', 'world', '[SEP]'])
  })
})
