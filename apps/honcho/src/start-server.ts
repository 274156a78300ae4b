import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import type { HonchoAuthOptions, HonchoLogEvent } from '@hymem/honcho-http'
import { GuardConfigError, RequestGuard } from '@hymem/http-guard'
import { createHyMemFromConfig, type HyMem, type HyMemConfig, type HyMemLog, maskSecrets } from 'hymem'
import { createServerApp } from './server-app'

export interface StartServerOptions {
  /** Receives the facade's events (dreams, notices, warnings). */
  readonly log?: HyMemLog
  /** Receives the HTTP layer's events (requests, unexpected errors with their stack). */
  readonly httpLog?: (event: HonchoLogEvent) => void
  /** Use this memory instead of building one from the config (it is closed with the server). */
  readonly memory?: HyMem
  /** How long `close()` waits for requests in flight to answer before closing their connections. @default 10 000 ms */
  readonly drainTimeoutMs?: number
  /**
   * Where the memory built from the config dreams: in a worker thread with its own connection (the event
   * loop serving requests never runs a dream), or on the server's thread. @default 'worker'
   */
  readonly dreamIn?: 'process' | 'worker'
  /** Schedule background dreams as messages arrive. @default true */
  readonly backgroundDreaming?: boolean
}

export interface RunningServer {
  readonly url: string
  readonly host: string
  readonly port: number
  readonly memory: HyMem
  /** The one start-up line: address, backend (and database), extractor, embedder, auth mode, MCP and inspector paths. */
  readonly startupLine: string
  /**
   * Drains, then closes the database: new requests get 503; requests in flight get `drainTimeoutMs` to
   * answer, after which their connections close but their work still finishes; dreams in a worker stop at
   * their next checkpoint, in-process dreams run to their end; scheduled (not yet started) dreams are dropped.
   */
  close(): Promise<void>
}

/** Thrown when the configuration is unsafe to serve (e.g. a public bind without tokens). */
export class ServerConfigError extends Error {
  override readonly name = 'ServerConfigError'
}

function authOf(config: HyMemConfig): HonchoAuthOptions | undefined {
  if (config.authTokens.length === 0) return undefined
  const tokens: Record<string, readonly string[] | '*'> = {}
  for (const token of config.authTokens) tokens[token.token] = token.workspaces
  return { tokens }
}

function guardOf(config: HyMemConfig): RequestGuard {
  try {
    return new RequestGuard({
      loopback: config.honcho.loopback,
      allowedHosts: config.honcho.allowedHosts,
      corsOrigins: config.honcho.corsOrigins,
    })
  } catch (error) {
    if (error instanceof GuardConfigError) throw new ServerConfigError(`Refusing to start: ${error.message}`)
    throw error
  }
}

/**
 * Opens HyMem from a resolved config and serves the Honcho routes, `/health` and `/mcp` on
 * `config.honcho.host:port`. Refuses to bind beyond loopback without auth tokens.
 *
 * @example
 * const { config, errors } = configFromEnv(process.env)
 * const server = await startServer(config)
 * console.log(server.startupLine)
 */
export async function startServer(
  config: HyMemConfig,
  options: StartServerOptions = {},
): Promise<RunningServer> {
  const auth = authOf(config)
  if (!config.honcho.loopback && !auth) {
    throw new ServerConfigError(
      `Refusing to listen on ${config.honcho.host} without authentication: set HYMEM_AUTH_TOKENS (token=ws1,ws2;token2=*) or bind HYMEM_HONCHO_HOST=127.0.0.1`,
    )
  }
  const guard = guardOf(config)
  const dreams = config.dream.enabled
  const memory =
    options.memory ??
    (await createHyMemFromConfig(config, {
      // A server that never dreams needs no dream worker thread (and its second connection).
      dreamIn: dreams ? (options.dreamIn ?? 'worker') : 'process',
      ...(options.log ? { log: options.log } : {}),
    }))
  // What the first requests would load on the event loop, loaded before listening: the token counter's
  // tables (half a second) and the local embedding model (a second or more). A part that fails to load
  // fails again, with its error, where a request uses it.
  await memory.warmUp().catch(() => undefined)
  if (config.embedding.provider === 'local' && memory.embeddings) {
    await memory.embeddings.embed(['hymem']).catch(() => undefined)
  }
  let draining = false
  const inFlight = new Set<Promise<unknown>>()
  const app = createServerApp({
    memory,
    guard,
    ...(auth ? { auth } : {}),
    ...(options.httpLog ? { log: options.httpLog } : {}),
    ...(options.backgroundDreaming === false ? { backgroundDreaming: false } : {}),
    ...(dreams ? {} : { dreamsElsewhere: true }),
  })
  const fetch = (request: Request): Response | Promise<Response> => {
    if (draining) {
      return new Response(JSON.stringify({ detail: 'Server is shutting down' }), {
        status: 503,
        headers: { 'content-type': 'application/json', connection: 'close' },
      })
    }
    const handled = Promise.resolve(app.fetch(request))
    inFlight.add(handled)
    void handled.finally(() => inFlight.delete(handled)).catch(() => {})
    return handled
  }
  let server: ReturnType<typeof serve>
  let port: number
  try {
    ;({ server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
      (resolve, reject) => {
        const started = serve(
          { fetch, hostname: config.honcho.host, port: config.honcho.port },
          (info: AddressInfo) => resolve({ server: started, port: info.port }),
        )
        started.once('error', reject)
      },
    ))
  } catch (error) {
    if (!options.memory) await memory.close()
    throw error
  }
  const host = config.honcho.host.includes(':') ? `[${config.honcho.host}]` : config.honcho.host
  const url = `http://${host}:${port}`
  const startupLine = maskSecrets(
    [
      `hymem-honcho listening on ${url}`,
      `backend ${memory.database.backend} ${memory.database.location}`,
      `extractor ${memory.extractor.name}`,
      `embedder ${memory.embeddings?.name ?? 'none'}`,
      `auth ${auth ? `bearer, ${config.authTokens.length} token(s)` : 'off (loopback only)'}`,
      'mcp /mcp',
      'inspector /inspect',
      `dreams ${dreams ? (memory.runtime().dreams.mode === 'worker' ? 'in a worker thread' : 'in process') : 'off (hymem worker)'}`,
    ].join(' · '),
  )

  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= (async () => {
      draining = true
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      if ('closeIdleConnections' in server) server.closeIdleConnections()
      const timeout = new Promise((resolve) => setTimeout(resolve, options.drainTimeoutMs ?? 10_000).unref())
      await Promise.race([Promise.allSettled([...inFlight]), timeout])
      // Past the timeout, slow clients lose their connection; handlers still running (a dream called over
      // MCP, say) finish their writes before the database closes under them.
      if ('closeAllConnections' in server) server.closeAllConnections()
      await Promise.allSettled([...inFlight])
      await closed
      if (memory.runtime().dreams.mode === 'worker') {
        // The worker stops every cycle, `schedule_dream`'s included, at its next checkpoint.
        await Promise.all([memory.close(), app.idle()])
      } else {
        await app.idle()
        await memory.close()
      }
    })()
    return closing
  }
  return { url, host: config.honcho.host, port, memory, startupLine, close }
}
