import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { configFromEnv, createHyMem, type Extractor, type HyMemLogEvent, openHyMemStore } from 'hymem'
import { afterEach, describe, expect, it } from 'vitest'
import { startServer } from '../src/start-server'

const roots: string[] = []

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

/** The rule-based extractor, with fact extraction held until `release()`; `entered` resolves when it is. */
function gatedExtractor(rules: Extractor) {
  let release: () => void = () => {}
  let entered: () => void = () => {}
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  const reached = new Promise<void>((resolve) => {
    entered = resolve
  })
  const extractor: Extractor = {
    ...rules,
    async extractFacts(input, opts) {
      entered()
      await gate
      return rules.extractFacts(input, opts)
    },
  }
  return { extractor, entered: reached, release }
}

async function rulesExtractor(root: string): Promise<Extractor> {
  const plain = await createHyMem({ root, embeddings: null })
  await plain.close()
  return plain.extractor
}

const storeClosed = (events: readonly HyMemLogEvent[]) =>
  events.some((event) => event.kind === 'store' && event.event.kind === 'close')

describe('startServer close()', () => {
  it('lets a dream called over MCP finish its writes when the drain timeout has closed its connection', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hymem-honcho-drain-'))
    roots.push(root)
    const { config } = configFromEnv({ HYMEM_ROOT: root, HYMEM_EMBEDDING_PROVIDER: 'none' })
    const gated = gatedExtractor(await rulesExtractor(root))
    const events: HyMemLogEvent[] = []
    const memory = await createHyMem({
      root,
      embeddings: null,
      extractor: gated.extractor,
      log: (event) => events.push(event),
    })
    await memory.log({ role: 'user', content: 'We switched from MySQL to Postgres last week for the API.' })
    const server = await startServer(
      { ...config, honcho: { ...config.honcho, port: 0 } },
      {
        memory,
        drainTimeoutMs: 0,
      },
    )
    const call = fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'hymem_dream', arguments: {} },
      }),
    }).then(
      () => 'answered',
      () => 'connection closed',
    )
    await gated.entered
    const watcher = await openHyMemStore({ root })
    const closing = server.close()
    // The drain timeout (0) closes the caller's connection while the dream is still held...
    expect(await call).toBe('connection closed')
    // ...and however long the dream takes, the database stays open under it.
    for (let turn = 0; turn < 100 && !storeClosed(events); turn++) {
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect(storeClosed(events)).toBe(false)
    gated.release()
    await closing
    expect(storeClosed(events)).toBe(true)
    const runs = await watcher.dreamRuns.recent('default')
    await watcher.close()
    expect(runs).toHaveLength(1)
    expect(runs[0]).toMatchObject({ status: 'ok', chunksProcessed: 1 })
    expect(runs[0]?.finishedAt).not.toBeNull()
  })
})
