import { join } from 'node:path'
import { openStore } from '@hymem/core-store'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { captureContext, FIXED_NOW, tempDir } from '../../test/harness'
import { seedRoot } from '../../test/seed'
import { ExitError } from '../exit-error'
import { runCli } from '../run'
import { dreamCommand } from './dream'

describe('hymem dream', () => {
  let root: string
  let cleanup: () => void
  beforeEach(() => {
    ;({ dir: root, cleanup } = tempDir())
  })
  afterEach(() => cleanup())

  it('dreams the captured conversation and prints its summary', async () => {
    await seedRoot(root, { dream: false })
    const { ctx, stdout, stderr } = captureContext({ env: { HYMEM_ROOT: root } })
    const report = await dreamCommand({}, ctx)
    expect(report).toMatchObject({
      status: 'ok',
      workspaceId: 'default',
      extractor: 'rules',
      chunksPending: 0,
    })
    expect(report.chunksCreated).toBeGreaterThan(0)
    expect(report.edgesUpserted).toBeGreaterThan(0)
    const lines = stdout().split('\n')
    expect(lines[0]).toBe(`Dream ok · workspace default · extractor rules · prompt ${report.promptVersion}`)
    expect(stdout()).toMatch(new RegExp(`^  chunks created +${report.chunksCreated}$`, 'm'))
    expect(stdout()).toMatch(new RegExp(`^  edges upserted +${report.edgesUpserted}$`, 'm'))
    expect(lines.at(-2)).toMatch(/^time \d+ m?s/)
    expect(stderr()).toMatchInlineSnapshot(`
      "note: no LLM key (HYMEM_LLM_API_KEY or DEEPSEEK_API_KEY): dreaming uses the rule-based extractor and no LLM reranker
      note: no embeddings: search is keyword + graph + recency only
      "
    `)
  })

  it('says "no LLM key" once, even when HYMEM_LOG_LEVEL lets the facade info events through', async () => {
    await seedRoot(root, { dream: false })
    const { ctx, stderr } = captureContext({ env: { HYMEM_ROOT: root, HYMEM_LOG_LEVEL: 'info' } })
    expect(await runCli(['dream', '--json'], ctx)).toBe(0)
    expect(
      stderr()
        .split('\n')
        .filter((line) => line.includes('no LLM')),
    ).toEqual([
      'note: no LLM key (HYMEM_LLM_API_KEY or DEEPSEEK_API_KEY): dreaming uses the rule-based extractor and no LLM reranker',
    ])
  })

  it('honours --budget and says when chunks are still pending', async () => {
    await seedRoot(root, { dream: false })
    const { ctx, stdout } = captureContext({ env: { HYMEM_ROOT: root } })
    expect(await runCli(['dream', '--budget', '1', '--json'], ctx)).toBe(0)
    const report = JSON.parse(stdout())
    expect(report.chunksProcessed).toBe(1)
    expect(report.chunksPending).toBeGreaterThan(0)
  })

  it('dreams only the named workspace', async () => {
    await seedRoot(root, { dream: false, env: { HYMEM_WORKSPACE: 'team-b' } })
    const { ctx, stdout } = captureContext({ env: { HYMEM_ROOT: root } })
    expect(await runCli(['dream', '--json'], ctx)).toBe(0)
    expect(JSON.parse(stdout())).toMatchObject({ workspaceId: 'default', chunksCreated: 0 })
    const other = captureContext({ env: { HYMEM_ROOT: root } })
    expect(await runCli(['--workspace', 'team-b', 'dream', '--json'], other.ctx)).toBe(0)
    expect(JSON.parse(other.stdout()).chunksCreated).toBeGreaterThan(0)
  })

  it('stops with exit 1 when another process holds the dream lock', async () => {
    await seedRoot(root, { dream: false })
    const holder = openStore({ path: join(root, 'hymem.sqlite'), clock: () => FIXED_NOW })
    const held = await holder.runLock.acquire('dream:default', 'another-dreamer')
    expect(held.acquired).toBe(true)
    try {
      const { ctx, stderr } = captureContext({ env: { HYMEM_ROOT: root } })
      await expect(dreamCommand({}, ctx)).rejects.toThrow(ExitError)
      const again = captureContext({ env: { HYMEM_ROOT: root } })
      expect(await runCli(['dream'], again.ctx)).toBe(1)
      expect(again.stderr().split('\n').at(-2)).toMatchInlineSnapshot(
        `"error: dream skipped: locked (another dream holds the lock; try again in a moment)"`,
      )
      expect(stderr()).not.toContain('    at ')
    } finally {
      await holder.close()
    }
  })

  it('stops with exit 130 when interrupted, keeping the database consistent for the next dream', async () => {
    await seedRoot(root, { dream: false })
    const { ctx } = captureContext({ env: { HYMEM_ROOT: root } })
    const interrupted = { ...ctx, interruptible: () => AbortSignal.abort() }
    const error = await dreamCommand({}, interrupted).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ExitError)
    expect((error as ExitError).exitCode).toBe(130)
    expect((error as ExitError).message).toMatchInlineSnapshot(
      `"dream interrupted: what it finished is kept, the next dream does the rest"`,
    )
    const next = captureContext({ env: { HYMEM_ROOT: root } })
    expect((await dreamCommand({}, next.ctx)).status).toBe('ok')
  })

  it('rejects a bad --budget as a usage error', async () => {
    const { ctx, stderr } = captureContext({ env: { HYMEM_ROOT: root } })
    expect(await runCli(['dream', '--budget', '0'], ctx)).toBe(2)
    expect(stderr().split('\n')[0]).toMatchInlineSnapshot(
      `"error: option '--budget <chunks>' argument '0' is invalid. expected a whole number of at least 1."`,
    )
  })
})
