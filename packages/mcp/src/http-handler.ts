import { RequestGuard } from '@hymem/http-guard'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { McpMemory } from './memory'
import { createMcpServer } from './server'

export const WORKSPACE_HEADER = 'x-hymem-workspace'
const WORKSPACE_ID = /^[a-zA-Z0-9_-]{1,512}$/
const JSON_BODIES = { accepts: ['json'] } as const

export interface McpHttpHandlerOptions {
  readonly memory: McpMemory
  /** Workspace for requests without an `X-HyMem-Workspace` header. @default memory.workspaceId */
  readonly defaultWorkspaceId?: string
  /**
   * The Host, Origin and body-type rules checked before anything else, the same as the other HTTP
   * surfaces'. @default `new RequestGuard()`: loopback host names only, no cross-origin writes, no CORS.
   */
  readonly guard?: RequestGuard
  /** Whether a caller may use a workspace (the Honcho server plugs its bearer-token rules in here). */
  readonly allowWorkspace?: (workspaceId: string, request: Request) => boolean | Promise<boolean>
  /** Public URL of the endpoint, shown by the usage guide. */
  readonly url?: string
  /** Ask for a background dream after each successful write tool call. @default true */
  readonly backgroundDreaming?: boolean
}

/**
 * A Streamable HTTP endpoint for the MCP server, as a Fetch-style handler, e.g. for Hono:
 * `app.all('/mcp', (c) => handler(c.req.raw))`. Stateless: every request gets its own server bound to the
 * request's workspace, so connections never share state or reach each other's workspaces.
 */
export function createMcpHttpHandler(
  options: McpHttpHandlerOptions,
): (request: Request) => Promise<Response> {
  const guard = options.guard ?? new RequestGuard()
  return async (request) => {
    const refusal = guard.check(request, JSON_BODIES)
    if (refusal) return jsonRpcError(refusal.status, refusal.reason)
    const preflight = guard.preflight(request)
    if (preflight) return preflight
    const header = request.headers.get(WORKSPACE_HEADER)?.trim()
    if (header !== undefined && header !== '' && !WORKSPACE_ID.test(header)) {
      return jsonRpcError(400, 'X-HyMem-Workspace must be 1-512 letters, digits, _ or -')
    }
    const workspaceId = header || options.defaultWorkspaceId || options.memory.workspaceId
    if (options.allowWorkspace && !(await options.allowWorkspace(workspaceId, request))) {
      return jsonRpcError(404, `workspace ${workspaceId} not found`)
    }
    const server = createMcpServer({
      memory: options.memory,
      transport: 'http',
      ...(header ? { workspaceId } : options.defaultWorkspaceId ? { workspaceId } : {}),
      ...(options.url ? { httpUrl: options.url } : {}),
      ...(options.backgroundDreaming === false ? { backgroundDreaming: false } : {}),
    })
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    })
    await server.connect(transport)
    try {
      return await transport.handleRequest(request)
    } finally {
      await server.close()
    }
  }
}

function jsonRpcError(status: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}
