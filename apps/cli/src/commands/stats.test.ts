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
        "search",
        "vectors",
        "workspaceId",
      ]
    `)
  })
})
