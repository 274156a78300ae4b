import { createInterface } from 'node:readline'
import { PassThrough } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { captureContext, tempDir } from '../../test/harness'
import type { CliContext } from '../io'
import { mcpCommand } from './mcp'

describe('hymem mcp', () => {
  let root: string
  let cleanup: () => void
  beforeEach(() => {
    ;({ dir: root, cleanup } = tempDir())
  })
  afterEach(() => cleanup())

  it('serves the tools over stdio: capture a turn, then augment finds it', async () => {
    const stdin = new PassThrough()
    const stdout = new PassThrough()
    const base = captureContext({ env: { HYMEM_ROOT: root } })
    const ctx: CliContext = { ...base.ctx, stdin, stdout: stdout as unknown as CliContext['stdout'] }
    const serving = mcpCommand({ workspace: 'mcp-test' }, ctx)
    const replies = createInterface({ input: stdout })[Symbol.asyncIterator]()
    let id = 0
    const call = async (method: string, params: object) => {
      id += 1
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`)
      return JSON.parse((await replies.next()).value as string)
    }

    await call('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'test', version: '0' },
    })
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`)
    const captured = await call('tools/call', {
      name: 'hymem_capture',
      arguments: {
        messages: [{ role: 'user', content: 'We deploy the billing API to Fly.io.' }],
        dream: true,
      },
    })
    expect(captured.result.isError).not.toBe(true)
    const augmented = await call('tools/call', {
      name: 'hymem_augment',
      arguments: { message: 'where is the billing API deployed?' },
    })
    expect(JSON.stringify(augmented.result.content)).toContain('fly')

    stdin.end()
    await serving
    expect(base.stderr()).toContain(`hymem mcp: serving workspace mcp-test from ${root} over stdio`)
  })

  it('refuses to run without real streams', async () => {
    const { ctx } = captureContext({ env: { HYMEM_ROOT: root } })
    await expect(mcpCommand({}, { ...ctx, stdin: [] as unknown as CliContext['stdin'] })).rejects.toThrow(
      'hymem mcp needs real stdin/stdout streams',
    )
  })
})
