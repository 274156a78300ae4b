import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { captureContext, tempDir } from '../../test/harness'
import { demoCommand } from './demo'

/** The root and the dream's wall time are the only unstable parts of the output. */
function stable(text: string, root: string): string {
  return text
    .split(root)
    .join('<root>')
    .replace(/ in \d+(\.\d+)? m?s$/m, ' in <time>')
}

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
    expect(stable(stdout(), root)).toMatchInlineSnapshot(`
      "HyMem demo
      Maya, a developer, talks with her assistant in 2 sessions (20 turns) about her stack,
      her preferences and how she deploys. HyMem logs them, dreams over them with the rule-based
      extractor (no LLM key, no network), then answers questions with no LLM on the hot path.

      1. Log     20 messages in 2 sessions → <root>/demo/hymem.sqlite
      2. Dream   7 chunks, 20 facts, 3 episodes, 1 procedure with extractor "rules" in <time>
      3. Ask     augment() for 4 questions:

      Q: Which database replaced MySQL?
         Facts (3)
           postgresql —replaces→ mysql  conf 0.67  score 0.77
              why: predicate:replaces, entity_type:database, entity_match
           team —uses→ postgresql  conf 0.67  score 0.51
              why: entity_type:database
           job_queue —depends_on→ redis  conf 0.67  score 0.51
              why: entity_type:database
         Procedures (1)
           Deploy Ledgerly  score 0.02
             1. Run pnpm test and pnpm build
             2. Tag the release with git tag and push the tag
             3. Wait for GitHub Actions to build the Docker image
             4. Run fly deploy to put the API on Fly.io
             5. Run drizzle-kit migrate against the production database
              why: keyword:procedures#1
         Episodes (1)
           API, Ledgerly, Maya: We use Vitest to test the API, and  score 0.02
             Last year we switched from MySQL to PostgreSQL. We use Vitest to test the API, and Playwright to te…
              why: keyword:episodes#1
         Messages (2)
           0.016  chunk: "user: The Ledgerly API is written in TypeScript. The API runs on Node.js 20. We use Fastify for HTT…"
              why: keyword:chunks#1
           0.016  chunk: "user: To deploy Ledgerly: 1. Run pnpm test and pnpm build. 2. Tag the release with git tag and push…"
              why: keyword:chunks#2
         Matched entities: mysql

      Q: How do I deploy Ledgerly?
         Facts (3)
           api —deploys_to→ flyio  conf 0.67  score 0.97
              why: predicate:deploys_to, recency_0d
           web_app —deploys_to→ vercel  conf 0.67  score 0.97
              why: predicate:deploys_to, recency_0d
           maya —part_of→ ledgerly  conf 0.67  score 0.51
              why: entity_match
         Procedures (1)
           Deploy Ledgerly  score 0.02
             1. Run pnpm test and pnpm build
             2. Tag the release with git tag and push the tag
             3. Wait for GitHub Actions to build the Docker image
             4. Run fly deploy to put the API on Fly.io
             5. Run drizzle-kit migrate against the production database
              why: keyword:procedures#1
         Episodes (1)
           API, pnpm, fly: We deploy the API to Fly.io and the  score 0.02
             Wait for GitHub Actions to build the Docker image. We deploy the API to Fly.io and the web app is h…
              why: keyword:episodes#1
         Messages (2)
           0.016  chunk: "user: To deploy Ledgerly: 1. Run pnpm test and pnpm build. 2. Tag the release with git tag and push…"
              why: keyword:chunks#1
           0.016  chunk: "user: Right. We deploy the API to Fly.io and the web app is hosted on Vercel. user: The API connect…"
              why: keyword:chunks#2
         Matched entities: ledgerly

      Q: What are my coding preferences?
         Facts (3)
           maya —prefers→ small_pure_functions  conf 0.67  score 0.77
              why: predicate:prefers
           maya —prefers→ explicit_error_types  conf 0.67  score 0.77
              why: predicate:prefers
           maya —prefers→ pnpm  conf 0.67  score 0.77
              why: predicate:prefers
         Episodes (1)
           pnpm, npm: I prefer pnpm over npm  score 0.02
             I prefer small pure functions and explicit error types. I prefer pnpm over npm.
              why: keyword:episodes#1
         Messages (2)
           0.016  chunk: "user: I prefer small pure functions and explicit error types. I prefer pnpm over npm. user: And ple…"
              why: keyword:chunks#1
           0.016  assistant: "Noted. Do you have style preferences I should follow when I write code?"
              why: keyword:messages#1

      Q: What does the API run on?
         Facts (3)
           api —runs_on→ nodejs  conf 0.67  score 0.77
              why: predicate:runs_on, entity_match
           api —deploys_to→ flyio  conf 0.67  score 0.64
              why: recency_0d, entity_match
           api —connects_to→ sentry  conf 0.67  score 0.64
              why: recency_0d, entity_match
         Procedures (1)
           Deploy Ledgerly  score 0.02
             1. Run pnpm test and pnpm build
             2. Tag the release with git tag and push the tag
             3. Wait for GitHub Actions to build the Docker image
             4. Run fly deploy to put the API on Fly.io
             5. Run drizzle-kit migrate against the production database
              why: keyword:procedures#1
         Episodes (1)
           API, Ledgerly, Maya: We use Vitest to test the API, and  score 0.02
             Last year we switched from MySQL to PostgreSQL. We use Vitest to test the API, and Playwright to te…
              why: keyword:episodes#1
         Messages (2)
           0.016  chunk: "user: To deploy Ledgerly: 1. Run pnpm test and pnpm build. 2. Tag the release with git tag and push…"
              why: keyword:chunks#1
           0.016  maya: "The Ledgerly API is written in TypeScript. The API runs on Node.js 20. We use Fastify for HTTP."
              why: keyword:messages#1
         Matched entities: api

      Next
        hymem demo --root ./hymem-demo     keep the demo database and look around
        hymem capture chat.jsonl --dream   log your own conversations (JSONL) and dream
        hymem augment "how do I deploy?"   ask your memory
        hymem doctor                       check the setup (LLM key, embeddings, drift)
        hymem mcp                          serve the memory to an MCP client over stdio
      "
    `)
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
