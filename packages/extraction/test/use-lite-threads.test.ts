import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { createUseLiteEmbeddings } from '../src/local'
import { expectExtractionError } from './expect-extraction-error'

const run = promisify(execFile)
const local = fileURLToPath(new URL('../src/local.ts', import.meta.url))

describe('USE-lite on worker threads', () => {
  it('lets the process exit once the vectors are back, without a close call', async () => {
    const script = `
      import { createUseLiteEmbeddings } from ${JSON.stringify(local)}
      const [v] = await createUseLiteEmbeddings({ threads: 2 }).embed(['the process ends after this'])
      console.log(v.length)
    `
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      timeout: 60_000,
    })
    expect(stdout.trim()).toBe('512')
  }, 90_000)

  it('embeds texts of very different lengths in parallel batches, in input order', async () => {
    const client = createUseLiteEmbeddings({ threads: 2, batchSize: 2 })
    const texts = [
      'deploy',
      `${'long text about the billing service '.repeat(20)}end`,
      'ok',
      'we use Postgres',
    ]
    const together = await client.embed(texts)
    for (const [i, text] of texts.entries()) {
      const [alone] = await client.embed([text])
      expect(Array.from(together[i]!)).toEqual(Array.from(alone!).map((x) => expect.closeTo(x, 5)))
    }
  }, 90_000)

  it('stops with ABORTED when the signal is already aborted', async () => {
    const controller = new AbortController()
    controller.abort()
    await expectExtractionError(
      createUseLiteEmbeddings({ threads: 1 }).embed(['x'], { signal: controller.signal }),
      'ABORTED',
    )
  })
})
