import { type JsonSchema, toJsonSchema } from '@valibot/to-json-schema'
import type * as v from 'valibot'
import { PATH_PARAMETERS } from './operations'
import type { OperationDoc, RouteKey } from './types'

type AnySchema = v.GenericSchema<unknown, unknown>
type Json = Record<string, unknown>

/** A served route as Hono lists it (`app.routes`). */
export interface ServedRoute {
  readonly method: string
  readonly path: string
}

/** The info block of the document. */
export interface OpenApiInfo {
  readonly title: string
  readonly version: string
  readonly description?: string
}

const ERROR_BODY = {
  description: 'A Honcho error: `detail` is a message, or FastAPI’s list of issues for a 422',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: { detail: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'object' } }] } },
        required: ['detail'],
      },
    },
  },
}

/** `/v3/workspaces/:ws/peers/:p` → `/v3/workspaces/{workspace_id}/peers/{peer_id}`. */
export function openApiPath(honoPath: string): string {
  return honoPath.replace(/:(\w+)/g, (_match, name: string) => `{${PATH_PARAMETERS[name] ?? name}}`)
}

/** The routes that answer requests: middleware (`ALL` on a wildcard) is left out. */
export function servedRoutes(routes: readonly ServedRoute[]): RouteKey[] {
  const keys = routes
    .filter((route) => !(route.method === 'ALL' && route.path.endsWith('*')))
    .map((route) => `${route.method} ${route.path}` as RouteKey)
  return [...new Set(keys)]
}

/** Converts a valibot schema to JSON Schema 2020-12 (OpenAPI 3.1's dialect); transforms and checks are dropped. */
function jsonSchemaOf(schema: AnySchema): JsonSchema {
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    errorMode: 'ignore',
  })
  return rest
}

function parametersOf(path: string, doc: OperationDoc): Json[] {
  const inPath = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }))
  const query = doc.query ? jsonSchemaOf(doc.query) : null
  const required = new Set((query?.required as string[] | undefined) ?? [])
  const inQuery = Object.entries((query?.properties ?? {}) as Record<string, JsonSchema>).map(
    ([name, schema]) => ({ name, in: 'query', required: required.has(name), schema }),
  )
  return [...inPath, ...inQuery]
}

function requestBodyOf(doc: OperationDoc): Json | undefined {
  if (doc.form) {
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: {
              file: { type: 'string', contentMediaType: 'application/octet-stream' },
              peer_id: { type: 'string' },
              metadata: { type: 'string', description: 'A JSON object' },
              configuration: { type: 'string', description: 'A JSON object' },
            },
            required: ['file', 'peer_id'],
          },
        },
      },
    }
  }
  if (!doc.body) return undefined
  return { content: { 'application/json': { schema: jsonSchemaOf(doc.body) } } }
}

function responsesOf(doc: OperationDoc): Json {
  const responses: Json = {}
  for (const status of doc.statuses ?? [200]) {
    const content = doc.streams
      ? { 'application/json': {}, 'text/event-stream': {} }
      : status === 204
        ? undefined
        : { 'application/json': {} }
    responses[String(status)] = { description: doc.summary, ...(content ? { content } : {}) }
  }
  return { ...responses, '4XX': ERROR_BODY }
}

/**
 * Builds the OpenAPI 3.1 document of the served routes from their docs. A served route with no doc, or a
 * doc naming no served route, throws: the document cannot drift from the app.
 */
export function buildOpenApiDocument(
  info: OpenApiInfo,
  routes: readonly ServedRoute[],
  docs: Readonly<Record<string, OperationDoc>>,
): Json {
  const served = servedRoutes(routes)
  const undocumented = served.filter((key) => !(key in docs))
  const unserved = Object.keys(docs).filter((key) => !served.includes(key as RouteKey))
  if (undocumented.length > 0 || unserved.length > 0) {
    throw new Error(
      `OpenAPI document out of step with the routes: undocumented [${undocumented.join(', ')}], documented but not served [${unserved.join(', ')}]`,
    )
  }
  const paths: Record<string, Json> = {}
  for (const key of served) {
    const doc = docs[key] as OperationDoc
    const space = key.indexOf(' ')
    const method = key.slice(0, space)
    const path = openApiPath(key.slice(space + 1))
    const methods = method === 'ALL' ? ['get', 'post', 'delete'] : [method.toLowerCase()]
    for (const verb of methods) {
      const requestBody = verb === 'get' ? undefined : requestBodyOf(doc)
      const parameters = parametersOf(path, doc)
      paths[path] = {
        ...paths[path],
        [verb]: {
          tags: [doc.tag],
          summary: doc.summary,
          ...(doc.description ? { description: doc.description } : {}),
          operationId: `${verb}_${path
            .replace(/[{}]/g, '')
            .replace(/[^A-Za-z0-9]+/g, '_')
            .replace(/^_|_$/g, '')}`,
          ...(parameters.length > 0 ? { parameters } : {}),
          ...(requestBody ? { requestBody } : {}),
          responses: responsesOf(doc),
        },
      }
    }
  }
  return {
    openapi: '3.1.0',
    info,
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Required when tokens are configured' },
      },
    },
    security: [{}, { bearer: [] }],
    paths,
  }
}
