import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createHyMem } from 'hymem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { captureContext, tempDir } from '../../test/harness'
import { seedRoot } from '../../test/seed'
import { runCli } from '../run'
import { augmentCommand } from './augment'
import { statsCommand } from './stats'

/** Durations are the only unstable figures. */
const stable = (text: string) => text.replace(/\d+(\.\d+)? m?s\b/g, '<t>')

describe('hymem stats', () => {
  let root: string
  let cleanup: () => void
  beforeEach(() => {
    ;({ dir: root, cleanup } = tempDir())
  })
  afterEach(() => cleanup())

  it('reports an empty store plainly', async () => {
    const { ctx, stdout } = captureContext({ env: { HYMEM_ROOT: root } })
    await statsCommand({}, ctx)
    expect(stable(stdout())).toMatchInlineSnapshot(`
      "Workspace default
        (empty)
        edges: 0 active, 0 stale, 0 retracted, 0 derived
        notes: 0 active, 0 archived
        vectors: sqlite-vec; none stored
      Dreams (most recent first)
        none yet: run "hymem dream"
      Searches
        none logged yet
      Retention (trimmed by each dream)
        log                         rows  keeps
        search log                     0  90 days, at most 100000 newest rows
        LLM cache (all workspaces)     0  30 days, at most 50000 newest rows
      Runtime (this process)
        event loop: delay p99 <t>, max <t> (over <t>)
        dreams: in process, idle; 0 crashes
      "
    `)
  })

  it('reports counts, the dream history and search-log figures', async () => {
    await seedRoot(root)
    const quiet = captureContext({ env: { HYMEM_ROOT: root } })
    await augmentCommand('where do we deploy the API?', {}, quiet.ctx)
    await augmentCommand('zebra xylophone', {}, quiet.ctx)
    const { ctx, stdout } = captureContext({ env: { HYMEM_ROOT: root } })
    const stats = await statsCommand({}, ctx)
    expect(stats.counts).toMatchObject({ messages: 5, sessions: 2, dream_runs: 1, search_log: 2 })
    expect(stats.dreams).toHaveLength(1)
    expect(stats.dreams[0]).toMatchObject({
      status: 'ok',
      extractor: 'rules',
      startedAt: '2026-06-15T12:00:00.000Z',
    })
    expect(stats.search).toMatchObject({ searches: 2, bySurface: { augment: 2 } })
    expect(stats.edges.active).toBe(stats.counts.knowledge_graph)
    const text = stdout()
    expect(text).toMatch(/^ {2}messages +5$/m)
    expect(text).toMatch(/^ {2}2026-06-15 12:00:00 +ok +rules /m)
    expect(text).toMatch(/^ {2}searches +2 \(augment 2\)$/m)
  })

  it('prints JSON with --json', async () => {
    const { ctx, stdout } = captureContext({ env: { HYMEM_ROOT: root } })
    expect(await runCli(['stats', '--json'], ctx)).toBe(0)
    expect(Object.keys(JSON.parse(stdout())).sort()).toMatchInlineSnapshot(`
      [
        "counts",
        "deletions",
        "dreams",
        "edges",
        "notes",
        "retention",
        "runtime",
        "search",
        "vectors",
        "workspaceId",
      ]
    `)
  })

  it("adds a running server's event-loop delay and dream worker with --server", async () => {
    const memory = await createHyMem({ root, embeddings: null })
    const server = createServer((request, response) => {
      const verbose = request.url === '/health?verbose'
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify(verbose ? { status: 'ok', ...memory.runtime() } : { status: 'ok' }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const { ctx, stdout } = captureContext({ env: { HYMEM_ROOT: root } })
      const stats = await statsCommand({ server: url }, ctx)
      expect(stats.server).toMatchObject({ url, dreams: { mode: 'process', state: 'idle' } })
      expect(stable(stdout())).toContain(
        `Server ${url}\n  event loop: delay p99 <t>, max <t> (over <t>)\n  dreams: in process, idle; 0 crashes\n`,
      )
    } finally {
      await new Promise((resolve) => server.close(resolve))
      await memory.close()
    }
    const { ctx } = captureContext({ env: { HYMEM_ROOT: root } })
    await expect(statsCommand({ server: url }, ctx)).rejects.toMatchObject({
      exitCode: 1,
      message: expect.stringMatching(/^cannot reach hymem-honcho at http:\/\/127\.0\.0\.1:\d+/),
    })
  })
})
