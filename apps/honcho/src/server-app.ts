import { createHonchoApp, type HonchoAuthOptions, type HonchoLogEvent } from '@hymem/honcho-http'
import { createInspectorApp, type InspectorLogEvent } from '@hymem/inspector'
import { createMcpHttpHandler } from '@hymem/mcp'
import { Hono } from 'hono'
import type { HyMem } from 'hymem'

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]']

export interface ServerAppOptions {
  readonly memory: HyMem
  readonly auth?: HonchoAuthOptions
  /** Whether the server is bound to a loopback address (the MCP Host check then allows loopback names only). */
  readonly loopback: boolean
  readonly log?: (event: HonchoLogEvent) => void
  /** Schedule a background dream after messages are added (and when a queue poll finds work). @default true */
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

function bearer(request: Request): string | null {
  const match = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization')?.trim() ?? '')
  return match ? match[1]!.trim() : null
}

function hostName(request: Request): string {
  const host = request.headers.get('host') ?? ''
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1)
  const colon = host.lastIndexOf(':')
  return colon === -1 ? host : host.slice(0, colon)
}

/**
 * The whole HTTP surface: the Honcho v3 routes and `/health` from `@hymem/honcho-http`, the MCP Streamable
 * HTTP endpoint at `/mcp` and the memory inspector at `/inspect`, all guarded by the same bearer tokens and
 * workspace rules. `idle()` waits for the dreams started by `schedule_dream`.
 */
export function createServerApp(options: ServerAppOptions): Hono & { readonly idle: () => Promise<void> } {
  const { memory, auth } = options
  const honcho = createHonchoApp({
    memory,
    ...(auth ? { auth } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.backgroundDreaming === false ? { backgroundDreaming: false } : {}),
    ...(options.dreamsElsewhere ? { dreamsElsewhere: true } : {}),
  })
  const app = new Hono()
  const allowedFor = (token: string | null): '*' | readonly string[] | null => {
    if (!auth) return '*'
    return token === null ? null : (auth.tokens[token] ?? null)
  }

  app.all('/mcp', async (c) => {
    const allowed = allowedFor(bearer(c.req.raw))
    if (allowed === null) return c.json({ detail: 'Not authenticated' }, 401)
    // With tokens on a public bind, the bearer token (which browsers cannot attach) guards against DNS
    // rebinding; on loopback the Host check does.
    const allowedHosts = options.loopback || !auth ? LOOPBACK_HOSTS : [hostName(c.req.raw)]
    const handler = createMcpHttpHandler({
      memory,
      allowedHosts,
      allowWorkspace: (workspaceId) => allowed === '*' || allowed.includes(workspaceId),
    })
    return handler(c.req.raw)
  })
  app.route(
    '/',
    createInspectorApp({
      memory,
      loopback: options.loopback,
      ...(auth ? { auth } : {}),
      ...(options.log ? { log: inspectorLog(options.log) } : {}),
    }),
  )
  app.route('/', honcho)
  return Object.assign(app, { idle: honcho.idle })
}
