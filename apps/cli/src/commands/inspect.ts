import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { RequestGuard } from '@hymem/http-guard'
import { createInspectorApp } from '@hymem/inspector'
import { EXIT_FAILURE, ExitError } from '../exit-error'
import { type CliContext, println } from '../io'
import { withHyMem } from '../open-hymem'
import type { GlobalOptions } from '../program'

export interface InspectOptions extends GlobalOptions {
  /** 0 picks a free port. */
  readonly port: number
  /** Stops the server (tests); otherwise Ctrl-C does. */
  readonly signal?: AbortSignal
}

/**
 * Serves the memory inspector for the configured memory on 127.0.0.1 and prints its URL; runs until Ctrl-C.
 * With `HYMEM_AUTH_TOKENS` set, the pages ask for one of the tokens, as the API does.
 */
export async function inspectCommand(options: InspectOptions, ctx: CliContext): Promise<void> {
  await withHyMem(options, ctx, async (memory, config) => {
    const tokens = Object.fromEntries(config.authTokens.map((t) => [t.token, t.workspaces]))
    const app = createInspectorApp({
      memory,
      guard: new RequestGuard({ allowedHosts: config.honcho.allowedHosts }),
      ...(config.authTokens.length > 0 ? { auth: { tokens } } : {}),
      log: (event) => {
        if (event.kind === 'error')
          ctx.stderr.write(`hymem inspect: ${String((event.error as Error)?.stack ?? event.error)}\n`)
      },
    })
    const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
      (resolve, reject) => {
        const started = serve(
          { fetch: app.fetch, hostname: '127.0.0.1', port: options.port },
          (info: AddressInfo) => resolve({ server: started, port: info.port }),
        )
        started.once('error', (error: NodeJS.ErrnoException) =>
          reject(
            error.code === 'EADDRINUSE'
              ? new ExitError(EXIT_FAILURE, `port ${options.port} is in use: pick another with --port`)
              : error,
          ),
        )
      },
    )
    const workspace =
      options.workspace === undefined ? '' : `/w/${encodeURIComponent(memory.workspaceId)}/graph`
    println(ctx.stdout, `http://127.0.0.1:${port}/inspect${workspace}`)
    ctx.stderr.write(
      `hymem inspect: serving ${memory.root} on loopback${config.authTokens.length > 0 ? ' (sign in with a token from HYMEM_AUTH_TOKENS)' : ''}; Ctrl-C to stop\n`,
    )
    const stop = options.signal ?? ctx.interruptible?.()
    await new Promise<void>((resolve) => {
      if (!stop) return
      if (stop.aborted) resolve()
      else stop.addEventListener('abort', () => resolve(), { once: true })
    })
    if ('closeAllConnections' in server) server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
}
