import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { captureContext, tempDir } from '../../test/harness'
import { seedRoot } from '../../test/seed'
import { runCli } from '../run'
import { augmentCommand } from './augment'

describe('hymem augment', () => {
  let root: string
  let cleanup: () => void
  beforeEach(async () => {
    ;({ dir: root, cleanup } = tempDir())
    await seedRoot(root)
  })
  afterEach(() => cleanup())

  it('prints facts with their reason codes, hits with scores, and episodes', async () => {
    const { ctx, stdout, stderr } = captureContext({ env: { HYMEM_ROOT: root } })
    await augmentCommand('Where do we deploy the API?', {}, ctx)
    expect(stdout().replace(/^\(\d+ ms\)$/m, '(<ms>)')).toMatchInlineSnapshot(`
      "Facts (2)
        api —deploys_to→ flyio  conf 0.67  score 0.97
           why: predicate:deploys_to, recency_0d, entity_match
        web_app —deploys_to→ vercel  conf 0.67  score 0.97
           why: predicate:deploys_to, recency_0d
      Episodes (1)
        API, Fly.io, Vercel: We deploy the API to Fly.io and the  score 0.02
          We deploy the API to Fly.io and the web app is hosted on Vercel.
           why: keyword:episodes#1
      Messages (2)
        0.016  chunk: "user: We deploy the API to Fly.io and the web app is hosted on Vercel."
           why: keyword:chunks#1
        0.016  assistant: "Got it, Fly.io for the API and Vercel for the web app."
           why: keyword:messages#2
      Matched entities: api
      (<ms>)
      "
    `)
    expect(stderr()).toBe('')
  })

  it('prints the whole result with --json, limited to one session with --session', async () => {
    const { ctx, stdout } = captureContext({ env: { HYMEM_ROOT: root } })
    expect(
      await runCli(['augment', 'PostgreSQL', 'or', 'MySQL?', '--json', '--session', 'kickoff'], ctx),
    ).toBe(0)
    const result = JSON.parse(stdout())
    expect(result.query).toBe('PostgreSQL or MySQL?')
    expect(result.hits.length).toBeGreaterThan(0)
    expect(new Set(result.hits.map((h: { sessionId: string }) => h.sessionId))).toEqual(new Set(['kickoff']))
    expect(Object.keys(result).sort()).toMatchInlineSnapshot(`
      [
        "episodes",
        "graphFacts",
        "hits",
        "matchedEntities",
        "memoryMd",
        "notes",
        "procedures",
        "query",
        "ranked",
        "timings",
        "userMd",
        "workspaceId",
      ]
    `)
  })

  it('says so when the memory is empty', async () => {
    const empty = tempDir()
    try {
      const { ctx, stdout } = captureContext({ env: { HYMEM_ROOT: empty.dir } })
      await augmentCommand('what database do we use?', {}, ctx)
      expect(stdout().split('\n')[0]).toMatchInlineSnapshot(
        `"Nothing relevant found. Run "hymem dream" after logging conversations."`,
      )
    } finally {
      empty.cleanup()
    }
  })

  it('needs some text (usage, exit 2)', async () => {
    const { ctx, stderr } = captureContext({ env: { HYMEM_ROOT: root } })
    expect(await runCli(['augment', '   '], ctx)).toBe(2)
    expect(stderr()).toMatchInlineSnapshot(`
      "error: augment needs some text, e.g. hymem augment "what database do we use?"
      "
    `)
  })
})
