import { Hono } from 'hono'
import { DOCS_PAGE_CSP, renderDocsPage } from '../openapi/docs-page'
import { buildOpenApiDocument, type ServedRoute } from '../openapi/document'
import { HONCHO_OPERATIONS } from '../openapi/operations'
import type { OperationDoc, RouteKey } from '../openapi/types'
import type { HonchoEnv } from '../types'

const INFO = {
  title: 'HyMem Honcho API',
  version: '3.2.0',
  description:
    'Honcho v3 routes served by HyMem, plus HyMem’s own routes under `/v3/workspaces/{workspace_id}/hymem`.',
}

export interface DocsRouteOptions {
  /** The app's routes, read when the document is first asked for (after every route is registered). */
  readonly routes: () => readonly ServedRoute[]
  /** Routes that the embedding server serves beside this app. */
  readonly extra: Readonly<Record<RouteKey, OperationDoc>>
}

/** `GET /openapi.json` (OpenAPI 3.1, built once from the served routes) and `GET /docs` (a static page). */
export function docsRoutes(options: DocsRouteOptions): Hono<HonchoEnv> {
  const app = new Hono<HonchoEnv>()
  let built: { json: string; html: string } | undefined
  const documents = () => {
    if (!built) {
      const { extra } = options
      const served = [
        ...options.routes(),
        ...Object.keys(extra).map((key) => {
          const [method = '', path = ''] = key.split(' ')
          return { method, path }
        }),
      ]
      const document = buildOpenApiDocument(INFO, served, { ...HONCHO_OPERATIONS, ...extra })
      built = { json: JSON.stringify(document), html: renderDocsPage(document) }
    }
    return built
  }
  app.get('/openapi.json', (c) => c.body(documents().json, 200, { 'content-type': 'application/json' }))
  app.get('/docs', (c) =>
    c.html(documents().html, 200, {
      'content-security-policy': DOCS_PAGE_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    }),
  )
  return app
}
