import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { captureContext, tempDir } from '../../test/harness'
import { seedRoot } from '../../test/seed'
import { runCli } from '../run'
import { augmentCommand } from './augment'
import { forgetCommand } from './forget'
import { statsCommand } from './stats'

describe('hymem forget', () => {
  let root: string
  let cleanup: () => void
  beforeEach(() => {
    ;({ dir: root, cleanup } = tempDir())
  })
  afterEach(() => cleanup())

  it('forgets a session, prints the receipt, and stats lists it', async () => {
    await seedRoot(root)
    const { ctx, stdout } = captureContext({ env: { HYMEM_ROOT: root } })
    const receipt = await forgetCommand('session', ['release'], {}, ctx)
    expect(receipt).toMatchObject({ kind: 'session', target: 'release', status: 'done' })
    expect(receipt.removed).toMatchObject({ messages: 2, sessions: 1 })
    expect(stdout()).toMatch(/^Forgot session release \(receipt \d+, gone from disk\)\n {2}.*2 messages/)

    const quiet = captureContext({ env: { HYMEM_ROOT: root } })
    const context = await augmentCommand(
      'where do we deploy the API? Fly.io or Vercel',
      { json: true },
      quiet.ctx,
    )
    expect(JSON.stringify(context.hits).toLowerCase()).not.toContain('vercel')

    const stats = captureContext({ env: { HYMEM_ROOT: root } })
    await statsCommand({}, stats.ctx)
    expect(stats.stdout()).toMatch(
      /Deletions \(most recent first\)\n.*\n {2}\S+ \S+ +session release +done +.*2 messages/,
    )
  })

  it('prints the receipt as JSON, and takes several message ids', async () => {
    await seedRoot(root, { dream: false })
    const { ctx, stdout } = captureContext({ env: { HYMEM_ROOT: root } })
    expect(await runCli(['forget', 'messages', 'nope-1', 'nope-2', '--json'], ctx)).toBe(0)
    expect(JSON.parse(stdout())).toMatchObject({ kind: 'messages', messageCount: 0, status: 'done' })
  })

  it('refuses an unknown kind, a bad fact id and an unknown note with one line', async () => {
    const run = async (args: string[]) => {
      const { ctx, stderr } = captureContext({ env: { HYMEM_ROOT: root } })
      return { code: await runCli(args, ctx), stderr: stderr() }
    }
    expect(await run(['forget', 'everything', 'x'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('cannot forget "everything"'),
    })
    expect(await run(['forget', 'fact', 'abc'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('a fact id is a positive integer'),
    })
    expect(await run(['forget', 'note', 'missing'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no note has id missing'),
    })
    expect(await run(['forget', 'session', 'a', 'b'])).toMatchObject({ code: 2 })
  })
})
