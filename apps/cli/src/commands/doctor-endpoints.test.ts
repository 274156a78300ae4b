import { type FakeOpenAIServer, startFakeOpenAIServer } from '@hymem/extraction/testing'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { captureContext, tempDir } from '../../test/harness'
import { ExitError } from '../exit-error'
import { collectDoctorReport, doctor } from './doctor'

describe('hymem doctor: endpoints', () => {
  let root: string
  let cleanup: () => void
  beforeEach(() => {
    ;({ dir: root, cleanup } = tempDir())
  })
  afterEach(() => cleanup())

  describe('endpoint checks (real HTTP against the fake OpenAI-compatible server)', () => {
    let server: FakeOpenAIServer
    beforeEach(async () => {
      server = await startFakeOpenAIServer({ apiKey: 'sk-test-0123456789abcdef' })
    })
    afterEach(() => server.close())

    const env = (key: string) => ({
      HYMEM_ROOT: root,
      HYMEM_LLM_API_KEY: key,
      HYMEM_LLM_BASE_URL: server.url,
    })
    const endpointLine = (report: Awaited<ReturnType<typeof collectDoctorReport>>) =>
      report.checks
        .filter((c) => c.name === 'llm endpoint' || c.name === 'extractor')
        .map((c) => `${c.status} ${c.name}: ${c.detail.split(server.url).join('<url>')}`)

    it('reports a reachable endpoint and an accepted key, with the key masked in settings', async () => {
      const { ctx } = captureContext({ env: env('sk-test-0123456789abcdef') })
      const report = await collectDoctorReport({}, ctx)
      expect(endpointLine(report)).toMatchInlineSnapshot(`
        [
          "ok extractor: llm:deepseek-chat at <url>",
          "ok llm endpoint: <url> reachable, key accepted",
        ]
      `)
      expect(report.settings.HYMEM_LLM_API_KEY).toBe('set (sk-…ef)')
      expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models'])
    })

    it('fails on a rejected key', async () => {
      const { ctx } = captureContext({ env: env('sk-wrong-key-000000000000') })
      await expect(doctor({}, ctx)).rejects.toThrow(ExitError)
      expect(endpointLine(await collectDoctorReport({}, ctx))).toMatchInlineSnapshot(`
        [
          "ok extractor: llm:deepseek-chat at <url>",
          "fail llm endpoint: <url>/models answered 401: the key was rejected; set a valid HYMEM_LLM_API_KEY",
        ]
      `)
    })

    it('fails when the endpoint does not answer within the timeout', async () => {
      server.fail({ kind: 'timeout' })
      const { ctx } = captureContext({ env: env('sk-test-0123456789abcdef') })
      expect(endpointLine(await collectDoctorReport({ timeoutMs: 200 }, ctx))).toMatchInlineSnapshot(`
        [
          "ok extractor: llm:deepseek-chat at <url>",
          "fail llm endpoint: <url> unreachable (no answer within 200 ms); check the base URL and your network, or run with --offline",
        ]
      `)
    })

    it('only warns when the endpoint answers another status (a server without /models)', async () => {
      server.fail({ kind: 'server_error', status: 404 })
      const { ctx } = captureContext({ env: env('sk-test-0123456789abcdef') })
      expect(endpointLine(await collectDoctorReport({}, ctx))).toMatchInlineSnapshot(`
        [
          "ok extractor: llm:deepseek-chat at <url>",
          "warn llm endpoint: <url>/models answered 404: reachable, but the key could not be checked",
        ]
      `)
    })

    it('skips the network with --offline', async () => {
      const { ctx } = captureContext({ env: env('sk-test-0123456789abcdef') })
      expect(endpointLine(await collectDoctorReport({ offline: true }, ctx))).toMatchInlineSnapshot(`
        [
          "ok extractor: llm:deepseek-chat at <url>",
          "ok llm endpoint: <url> not checked (--offline)",
        ]
      `)
      expect(server.requests).toHaveLength(0)
    })
  })

  it('fails when nothing listens at the endpoint', async () => {
    const closed = await startFakeOpenAIServer()
    const url = closed.url
    await closed.close()
    const { ctx } = captureContext({
      env: { HYMEM_ROOT: root, HYMEM_LLM_API_KEY: 'k', HYMEM_LLM_BASE_URL: url },
    })
    const report = await collectDoctorReport({}, ctx)
    const line = report.checks.find((c) => c.name === 'llm endpoint')
    expect(line?.status).toBe('fail')
    expect(line?.detail.split(url).join('<url>')).toMatchInlineSnapshot(
      `"<url> unreachable (ECONNREFUSED); check the base URL and your network, or run with --offline"`,
    )
  })
})
