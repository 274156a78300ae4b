import { createHonchoApp, type HonchoAuthOptions, type HonchoLogEvent } from '@hymem/honcho-http'
import {
  bearerToken,
  guardRequests,
  type RequestGuard,
  requestBodyLimit,
  TokenTable,
} from '@hymem/http-guard'
import { createInspectorApp, type InspectorLogEvent } from '@hymem/inspector'
import { createMcpHttpHandler } from '@hymem/mcp'
import { Hono } from 'hono'
import type { HyMem } from 'hymem'
import { SERVER_ROUTE_DOCS } from './documented-routes'

/** The MCP SDK's own Node transport reads at most 4 MB a message. */
const MCP_BODY_BYTES = 4 * 1024 * 1024
const JSON_BODIES = { accepts: ['json'] } as const

export interface ServerAppOptions {
  readonly memory: HyMem
  readonly auth?: HonchoAuthOptions
  /** Host, Origin, body-type and CORS rules, shared by every surface. */
  readonly guard: RequestGuard
  readonly log?: (event: HonchoLogEvent) => void
  /** Schedule a background dream after messages are added, and after MCP write tools (and when a queue poll finds work). @default true */
  readonly backgroundDreaming?: boolean
  /** Never dream here: `hymem worker` processes do (`--no-dream`, `HYMEM_DREAM=off`). @default false */
  readonly dreamsElsewhere?: boolean
}

/** The inspector's unexpected errors go to the HTTP log like the API's. */
function inspectorLog(log: (event: HonchoLogEvent) => void) {
  return (event: InspectorLogEvent) => {
    if (event.kind === 'error') log(event)
  }
}

/**
 * The whole HTTP surface: the Honcho v3 routes and `/health` from `@hymem/honcho-http`, the MCP Streamable
 * HTTP endpoint at `/mcp` and the memory inspector at `/inspect`, all guarded by the same bearer tokens and
 * workspace rules. `idle()` waits for the dreams started by `schedule_dream`.
 */
export function createServerApp(options: ServerAppOptions): Hono & { readonly idle: () => Promise<void> } {
  const { memory, auth, guard } = options
  const honcho = createHonchoApp({
    memory,
    guard,
    ...(auth ? { auth } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.backgroundDreaming === false ? { backgroundDreaming: false } : {}),
    ...(options.dreamsElsewhere ? { dreamsElsewhere: true } : {}),
    documentedRoutes: SERVER_ROUTE_DOCS,
  })
  const app = new Hono()
  const tokens = new TokenTable(auth?.tokens)

  app.use(
    '/mcp',
    guardRequests(guard, JSON_BODIES, (c, refusal) =>
      c.json({ jsonrpc: '2.0', error: { code: -32000, message: refusal.reason }, id: null }, refusal.status),
    ),
    requestBodyLimit(MCP_BODY_BYTES, (c) =>
      c.json(
        {
          jsonrpc: '2.0',
          error: { code: -32000, message: `Request body exceeds ${MCP_BODY_BYTES} bytes` },
          id: null,
        },
        413,
      ),
    ),
  )
  app.all('/mcp', async (c) => {
    const token = bearerToken(c.req.header('authorization'))
    const allowed = !auth ? '*' : token === null ? null : tokens.grantOf(token)
    if (allowed === null) return c.json({ detail: 'Not authenticated' }, 401)
    const handler = createMcpHttpHandler({
      memory,
      guard,
      allowWorkspace: (workspaceId) => allowed === '*' || allowed.has(workspaceId),
      // MCP writes ask for dreams like message writes do; not when other processes dream.
      ...(options.backgroundDreaming === false || options.dreamsElsewhere
        ? { backgroundDreaming: false }
        : {}),
    })
    return handler(c.req.raw)
  })
  app.route(
    '/',
    createInspectorApp({
      memory,
      guard,
      ...(auth ? { auth } : {}),
      ...(options.log ? { log: inspectorLog(options.log) } : {}),
    }),
  )
  app.route('/', honcho)
  return Object.assign(app, { idle: honcho.idle })
}
