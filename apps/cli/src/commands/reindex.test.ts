import { type FakeOpenAIServer, startFakeOpenAIServer } from '@hymem/extraction/testing'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { captureContext, tempDir } from '../../test/harness'
import { seedRoot } from '../../test/seed'
import { runCli } from '../run'
import { collectDoctorReport } from './doctor'
import { reindexCommand } from './reindex'

describe('hymem reindex', () => {
  let root: string
  let cleanup: () => void
  let server: FakeOpenAIServer
  beforeEach(async () => {
    ;({ dir: root, cleanup } = tempDir())
    server = await startFakeOpenAIServer({ apiKey: 'sk-embeddings-0123456789', embeddingDimensions: 32 })
  })
  afterEach(async () => {
    await server.close()
    cleanup()
  })

  it('moves every vector index to a new embedding model, which clears the drift doctor reports', async () => {
    await seedRoot(root, { env: { HYMEM_EMBEDDING_PROVIDER: 'fake' } })
    const env = {
      HYMEM_ROOT: root,
      HYMEM_EMBEDDING_PROVIDER: 'openai-compatible',
      HYMEM_EMBEDDING_BASE_URL: server.url,
      HYMEM_EMBEDDING_API_KEY: 'sk-embeddings-0123456789',
      HYMEM_EMBEDDING_MODEL: 'fake-embedding',
    }
    const drift = async () =>
      (await collectDoctorReport({ offline: true }, captureContext({ env }).ctx)).checks
        .filter((c) => c.name === 'embedding drift')
        .map((c) => `${c.status}: ${c.detail}`)
    expect(await drift()).toMatchInlineSnapshot(`
      [
        "fail: chunks, edges, episodes, messages vectors are all fake-hash-64 (64-d) but the configured embedder is fake-embedding: run "hymem reindex", or set HYMEM_EMBEDDING_* back",
      ]
    `)

    const { ctx, stdout } = captureContext({ env })
    const report = await reindexCommand({}, ctx)
    expect(report).toMatchObject({ model: 'fake-embedding', dimensions: 32 })
    expect(stdout()).toMatchInlineSnapshot(`
      "Full-text index rebuilt
        table       rows
        messages       5
        chunks         3
        episodes       2
        procedures     0
        notes          0
        passages       0
      Re-indexed with fake-embedding (32-d)
        index     vectors  previously
        chunks          3  fake-hash-64 (64-d)
        edges           6  fake-hash-64 (64-d)
        episodes        2  fake-hash-64 (64-d)
        notes           0  -
        messages        5  fake-hash-64 (64-d)
      "
    `)
    expect(server.embeddingRequests.length).toBeGreaterThan(0)
    expect(await drift()).toMatchInlineSnapshot(`
      [
        "ok: chunks, edges, episodes, messages pinned to fake-embedding (32-d), as configured",
      ]
    `)

    const augmented = captureContext({ env })
    expect(await runCli(['augment', 'where is the API deployed?', '--json'], augmented.ctx)).toBe(0)
    const codes = JSON.parse(augmented.stdout()).graphFacts.flatMap(
      (f: { whyRetrieved: string[] }) => f.whyRetrieved,
    )
    expect(codes.some((code: string) => code.startsWith('semantic_'))).toBe(true)
  })

  it('without an embedder rebuilds the full-text index alone, and --json summarises it', async () => {
    const env = { HYMEM_ROOT: root, HYMEM_EMBEDDING_PROVIDER: 'none' }
    await seedRoot(root, { env })
    const json = captureContext({ env })
    expect(await runCli(['reindex', '--json'], json.ctx)).toBe(0)
    const report = JSON.parse(json.stdout())
    expect(report).toMatchObject({ model: null, vectors: {} })
    expect(report.fullText.messages).toBeGreaterThan(0)
    expect(Object.keys(report.fullText)).toEqual([
      'messages',
      'chunks',
      'episodes',
      'procedures',
      'notes',
      'passages',
    ])

    const text = captureContext({ env })
    expect(await runCli(['reindex'], text.ctx)).toBe(0)
    expect(text.stdout()).toContain('Full-text index rebuilt')
    expect(text.stdout()).toContain('No embedder configured: vectors left as they are')
    const searched = captureContext({ env })
    expect(await runCli(['augment', 'where is the API deployed?', '--json'], searched.ctx)).toBe(0)
    // Found by keyword in the rebuilt index (reason codes `keyword:messages#…`).
    expect(searched.stdout()).toMatch(/"keyword:messages#\d+"/)
  })
})
