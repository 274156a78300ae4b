import { Validator } from '@seriousme/openapi-schema-validator'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestServer, type TestServer } from '../../test/harness'
import { openApiPath, servedRoutes } from '../openapi/document'

let t: TestServer
beforeEach(async () => {
  t = await openTestServer()
})
afterEach(async () => {
  await t.close()
})

interface Document {
  openapi: string
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>>
}

describe('/openapi.json', () => {
  it('documents exactly the routes the app serves, as OpenAPI 3.1', async () => {
    const res = await t.call('GET', '/openapi.json')
    expect(res.status).toBe(200)
    const doc = (await res.json()) as Document
    expect(doc.openapi).toBe('3.1.0')
    const validator = new Validator()
    const validation = await validator.validate(doc as unknown as Record<string, unknown>)
    expect(validation.errors ?? []).toEqual([])
    expect(validation.valid).toBe(true)
    expect(validator.version).toBe('3.1')
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    )
    const served = servedRoutes(t.app.routes).map((key) => {
      const [method, path] = key.split(' ')
      return `${method} ${openApiPath(path!)}`
    })
    expect(documented.sort()).toEqual([...new Set(served)].sort())
    expect(served.length).toBeGreaterThan(60)
  })

  it('describes bodies and parameters from the routes’ own valibot schemas', async () => {
    const doc = (await (await t.call('GET', '/openapi.json')).json()) as Document
    const create = doc.paths['/v3/workspaces/{workspace_id}/conclusions']!.post!
    expect(create.requestBody!.content['application/json']!.schema).toMatchObject({
      type: 'object',
      required: ['conclusions'],
      properties: { conclusions: { type: 'array', minItems: 1, maxItems: 100 } },
    })
    const context = doc.paths['/v3/workspaces/{workspace_id}/sessions/{session_id}/context']!
      .get as unknown as {
      parameters: { name: string; in: string }[]
    }
    expect(context.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(['path:workspace_id', 'path:session_id', 'query:peer_target', 'query:tokens']),
    )
    const upload = doc.paths['/v3/workspaces/{workspace_id}/sessions/{session_id}/messages/upload']!.post!
    expect(Object.keys(upload.requestBody!.content)).toEqual(['multipart/form-data'])
  })
})

describe('/docs', () => {
  it('renders every route on one page that loads nothing from anywhere', async () => {
    const res = await t.call('GET', '/docs')
    expect(res.status).toBe(200)
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'/)
    const html = await res.text()
    expect(html).not.toMatch(/<script|<link|src=|@import|url\(/i)
    expect(html).toContain('/v3/workspaces/{workspace_id}/conclusions/query')
    expect(html).toContain('/v3/workspaces/{workspace_id}/hymem/augment')
  })
})
