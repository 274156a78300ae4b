import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { captureContext, tempDir } from '../../test/harness'
import { demoCommand } from './demo'

describe('hymem demo', () => {
  let root: string
  let cleanup: () => void
  beforeEach(() => {
    ;({ dir: root, cleanup } = tempDir())
  })
  afterEach(() => cleanup())

  it('logs, dreams with the rule-based extractor (ignoring an LLM key) and answers the questions', async () => {
    const { ctx, stdout, stderr } = captureContext({
      env: { HYMEM_LLM_API_KEY: 'sk-must-not-be-used-0000', HYMEM_EMBEDDING_PROVIDER: 'none' },
    })
    const result = await demoCommand({ root: join(root, 'demo') }, ctx)
    expect(result.messages).toBe(20)
    expect(stderr()).toBe('')
    const text = stdout()
    // The frame (everything but the answers' contents), with the dream's counts and time masked.
    const frame = text
      .split('\n')
      .filter((line) => !line.startsWith('   '))
      .join('\n')
      .split(root)
      .join('<root>')
      .replace(/^(2\. Dream +).*( with extractor)/m, '$1<counts>$2')
      .replace(/ in \d+(\.\d+)? m?s$/m, ' in <time>')
    expect(frame).toMatchInlineSnapshot(`
      "HyMem demo
      Maya, a developer, talks with her assistant in 2 sessions (20 turns) about her stack,
      her preferences and how she deploys. HyMem logs them, dreams over them with the rule-based
      extractor (no LLM key, no network), then answers questions with no LLM on the hot path.

      1. Log     20 messages in 2 sessions → <root>/demo/hymem.sqlite
      2. Dream   <counts> with extractor "rules" in <time>
      3. Ask     augment() for 4 questions:

      Q: Which database replaced MySQL?

      Q: How do I deploy Ledgerly?

      Q: What are my coding preferences?

      Q: What does the API run on?

      Next
        hymem demo --root ./hymem-demo     keep the demo database and look around
        hymem capture chat.jsonl --dream   log your own conversations (JSONL) and dream
        hymem augment "how do I deploy?"   ask your memory
        hymem doctor                       check the setup (LLM key, embeddings, drift)
        hymem mcp                          serve the memory to an MCP client over stdio
      "
    `)

    const facts = (i: number) =>
      result.answers[i]!.graphFacts.map((f) => `${f.subject} ${f.predicate} ${f.object}`)
    expect(facts(0)).toContain('postgresql replaces mysql')
    expect(result.answers[1]!.procedures[0]?.steps.map((step) => step.text)).toEqual([
      'Run pnpm test and pnpm build',
      'Tag the release with git tag and push the tag',
      'Wait for GitHub Actions to build the Docker image',
      'Run fly deploy to put the API on Fly.io',
      'Run drizzle-kit migrate against the production database',
    ])
    expect(facts(2)).toContain('maya prefers pnpm')
    expect(facts(3)[0]).toBe('api runs_on nodejs')
    expect(text).toContain('     postgresql —replaces→ mysql  conf ')
    expect(text).toContain('       5. Run drizzle-kit migrate against the production database')

    const again = captureContext({ env: { HYMEM_EMBEDDING_PROVIDER: 'none' } })
    await expect(demoCommand({ root: join(root, 'demo') }, again.ctx)).rejects.toThrow(/already holds a demo/)
  })

  it('runs on the default offline embeddings in a temporary root it removes afterwards', async () => {
    const { ctx, stdout } = captureContext({ env: { HYMEM_EMBEDDING_PROVIDER: undefined } })
    const result = await demoCommand({}, ctx)
    expect(existsSync(result.root)).toBe(false)
    const deploy = result.answers[1]!
    expect(deploy.procedures[0]?.name).toBe('Deploy Ledgerly')
    expect(deploy.procedures[0]?.steps).toHaveLength(5)
    const reasons = result.answers.flatMap((a) => [...a.graphFacts, ...a.hits].flatMap((x) => x.whyRetrieved))
    expect(reasons.some((code) => code.startsWith('semantic_'))).toBe(true)
    expect(stdout()).toContain('Q: What does the API run on?')
  })
})
