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

  it('prints facts with their reason codes, and the hits', async () => {
    const { ctx, stdout, stderr } = captureContext({ env: { HYMEM_ROOT: root } })
    const result = await augmentCommand('Where do we deploy the API?', {}, ctx)
    const deploys = result.graphFacts.find((f) => f.subject === 'api' && f.object === 'flyio')
    expect(deploys?.whyRetrieved).toContain('predicate:deploys_to')
    expect(stdout()).toContain(`  api —deploys_to→ flyio  conf ${deploys?.confidence.toFixed(2)}`)
    expect(stdout()).toContain(`     why: ${deploys?.whyRetrieved.join(', ')}`)
    expect(result.hits.map((h) => h.text).join('\n')).toContain('We deploy the API to Fly.io')
    expect(stdout()).toMatch(/^Messages \(\d+\)$/m)
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
        "context",
        "contextTokens",
        "episodes",
        "graphFacts",
        "hits",
        "matchedEntities",
        "memoryMd",
        "notes",
        "procedures",
        "query",
        "ranked",
        "suppressed",
        "timings",
        "userMd",
        "workspaceId",
      ]
    `)
  })

  it('prints one context block within --tokens', async () => {
    const { ctx, stdout, stderr } = captureContext({ env: { HYMEM_ROOT: root } })
    expect(
      await runCli(['augment', 'Where', 'do', 'we', 'deploy', 'the', 'API?', '--tokens', '400'], ctx),
    ).toBe(0)
    const block = stdout()
    expect(block).toContain('## Relevant memory (best first)')
    expect(block).toContain('- api deploys_to flyio (why: ')
    expect(block).toMatch(/- \[\d{4}-\d{2}-\d{2} \S+\] We deploy the API to Fly\.io/)
    expect(stderr()).toBe('')
    const tight = captureContext({ env: { HYMEM_ROOT: root } })
    expect(
      await runCli(['augment', 'Where', 'do', 'we', 'deploy', 'the', 'API?', '--tokens', '40'], tight.ctx),
    ).toBe(0)
    expect(tight.stdout().length).toBeLessThan(block.length)
    expect(
      await runCli(['augment', 'x', '--tokens', '0'], captureContext({ env: { HYMEM_ROOT: root } }).ctx),
    ).toBe(2)
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
