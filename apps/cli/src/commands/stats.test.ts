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

  it('reports counts, the dream history and search-log figures with recent misses', async () => {
    await seedRoot(root)
    const quiet = captureContext({ env: { HYMEM_ROOT: root } })
    await augmentCommand('where do we deploy the API?', {}, quiet.ctx)
    await augmentCommand('zebra xylophone', {}, quiet.ctx)
    const { ctx, stdout } = captureContext({ env: { HYMEM_ROOT: root } })
    const stats = await statsCommand({}, ctx)
    expect(stats.search.searches).toBe(2)
    expect(stable(stdout())).toMatchInlineSnapshot(`
      "Workspace default
        peers               3
        sessions            2
        messages            5
        chunks              3
        knowledge_graph     6
        kg_evidence         6
        entity_aliases      1
        entity_types        5
        behavioral_markers  1
        profile_entries     1
        episodes            2
        dream_runs          1
        search_log          2
        edges: 6 active, 0 stale, 0 retracted, 0 derived
        notes: 0 active, 0 archived
        vectors: sqlite-vec; none stored
      Dreams (most recent first)
        started (UTC)        status  extractor  chunks  edges  errors  time
        2026-06-15 12:00:00  ok      rules           3      6       0  <t>
      Searches
        searches           2 (augment 2)
        empty results      0.0%
        average hits       5.5
        average top score  0.950
        latency            p50 <t>, p95 <t>
      "
    `)
  })

  it('prints JSON with --json', async () => {
    const { ctx, stdout } = captureContext({ env: { HYMEM_ROOT: root } })
    expect(await runCli(['stats', '--json'], ctx)).toBe(0)
    expect(Object.keys(JSON.parse(stdout())).sort()).toMatchInlineSnapshot(`
      [
        "counts",
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
