import { createServer } from 'node:net'
import { createHyMem } from 'hymem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { captureContext, tempDir } from '../../test/harness'
import { runCli } from '../run'
import { inspectCommand } from './inspect'

describe('hymem inspect', () => {
  let root: string
  let cleanup: () => void
  beforeEach(() => {
    ;({ dir: root, cleanup } = tempDir())
  })
  afterEach(() => cleanup())

  it('serves the configured memory on loopback, prints the URL, and stops on the signal', async () => {
    const memory = await createHyMem({ root })
    await memory.capture([{ role: 'user', content: 'We deploy the API to Fly.io.' }], { dream: true })
    await memory.close()
    const { ctx, stdout, stderr } = captureContext({ env: { HYMEM_ROOT: root } })
    const stop = new AbortController()
    const serving = inspectCommand({ port: 0, signal: stop.signal }, ctx)
    await expect.poll(stdout, { timeout: 10_000 }).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/inspect\n$/)
    const url = stdout().trim()
    const graph = await fetch(url)
    expect(graph.status).toBe(200)
    expect(graph.url).toMatch(/\/inspect\/w\/default\/graph$/)
    expect(await graph.text()).toContain('flyio')
    expect(stderr()).toContain(`hymem inspect: serving ${root} on loopback; Ctrl-C to stop`)
    stop.abort()
    await serving
    await expect(fetch(url)).rejects.toThrow()
  })

  it('opens the chosen workspace, and says so when the port is taken', async () => {
    const blocker = createServer()
    const port = await new Promise<number>((resolve) =>
      blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)),
    )
    try {
      const { ctx, stderr } = captureContext({ env: { HYMEM_ROOT: root } })
      expect(await runCli(['inspect', '--port', String(port), '--workspace', 'team'], ctx)).toBe(1)
      expect(stderr()).toContain(`error: port ${port} is in use: pick another with --port`)
    } finally {
      blocker.close()
    }
    const { ctx, stdout } = captureContext({ env: { HYMEM_ROOT: root } })
    const stop = new AbortController()
    const serving = inspectCommand({ port: 0, workspace: 'team', signal: stop.signal }, ctx)
    await expect.poll(stdout, { timeout: 10_000 }).toMatch(/\/inspect\/w\/team\/graph\n$/)
    stop.abort()
    await serving
  })

  it('refuses a port that is not one', async () => {
    const { ctx, stderr } = captureContext()
    expect(await runCli(['inspect', '--port', '70000'], ctx)).toBe(2)
    expect(stderr()).toContain("argument '70000' is invalid. expected a port from 0 to 65535.")
  })
})
