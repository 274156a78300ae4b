import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { McpMemory } from './memory'
import { createMcpServer } from './server'

export const WORKSPACE_HEADER = 'x-hymem-workspace'
const WORKSPACE_ID = /^[a-zA-Z0-9_-]{1,512}$/
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

export interface McpHttpHandlerOptions {
  readonly memory: McpMemory
  /** Workspace for requests without an `X-HyMem-Workspace` header. @default memory.workspaceId */
  readonly defaultWorkspaceId?: string
  /**
   * Host names (without port) accepted in the Host header, and as Origin hosts. Guards a loopback bind
   * against DNS rebinding. @default localhost, 127.0.0.1, [::1]
   */
  readonly allowedHosts?: readonly string[]
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
  const allowedHosts = new Set(options.allowedHosts ?? LOOPBACK_HOSTS)
  return async (request) => {
    const hostProblem = checkHostAndOrigin(request, allowedHosts)
    if (hostProblem) return jsonRpcError(403, hostProblem)
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

function checkHostAndOrigin(request: Request, allowed: ReadonlySet<string>): string | null {
  const host = request.headers.get('host')
  if (host && !allowed.has(stripPort(host))) return `Host ${host} is not allowed`
  const origin = request.headers.get('origin')
  if (origin && origin !== 'null') {
    let originHost: string
    try {
      originHost = new URL(origin).host
    } catch {
      return `Origin ${origin} is not allowed`
    }
    if (!allowed.has(stripPort(originHost))) return `Origin ${origin} is not allowed`
  }
  return null
}

function stripPort(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1)
  const colon = host.lastIndexOf(':')
  return colon === -1 ? host : host.slice(0, colon)
}

function jsonRpcError(status: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}
