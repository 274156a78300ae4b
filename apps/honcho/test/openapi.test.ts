import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RequestGuard } from '@hymem/http-guard'
import { configFromEnv, type HyMemConfig } from 'hymem'
import { afterEach, describe, expect, it } from 'vitest'
import { createServerApp } from '../src/server-app'
import { type RunningServer, startServer } from '../src/start-server'

const roots: string[] = []
const servers: RunningServer[] = []

function testConfig(): HyMemConfig {
  const root = mkdtempSync(join(tmpdir(), 'hymem-honcho-openapi-'))
  roots.push(root)
  const { config, errors } = configFromEnv({ HYMEM_ROOT: root, HYMEM_EMBEDDING_PROVIDER: 'fake' })
  expect(errors).toEqual([])
  return { ...config, honcho: { ...config.honcho, port: 0 } }
}

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

/** `:ws`-style segments to `{…}`, so app routes and document paths compare by shape. */
const shape = (path: string) => path.replace(/:\w+|\{\w+\}/g, '{}')

describe('hymem-honcho /openapi.json and /docs', () => {
  it('document every API route the server serves (the inspector UI aside), /mcp included', async () => {
    const server = await startServer(testConfig())
    servers.push(server)
    const res = await fetch(`${server.url}/openapi.json`)
    expect(res.status).toBe(200)
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> }
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${shape(path)}`),
      ),
    )
    const app = createServerApp({
      memory: server.memory,
      guard: new RequestGuard({ loopback: true }),
      backgroundDreaming: false,
    })
    const served = app.routes
      .filter((route) => !route.path.startsWith('/inspect') && !route.path.endsWith('*'))
      .flatMap((route) =>
        route.method === 'ALL'
          ? ['GET', 'POST', 'DELETE'].map((method) => `${method} ${shape(route.path)}`)
          : [`${route.method} ${shape(route.path)}`],
      )
    expect([...documented].sort()).toEqual([...new Set(served)].sort())
    expect(documented).toContain('POST /mcp')

    const page = await fetch(`${server.url}/docs`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(await page.text()).toContain('/mcp')
  })
})
