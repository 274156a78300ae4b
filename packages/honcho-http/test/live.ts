import type { AddressInfo } from 'node:net'
import { Honcho } from '@honcho-ai/sdk'
import { serve } from '@hono/node-server'
import { openTestServer, type TestServer } from './harness'

export interface LiveServer extends TestServer {
  readonly baseURL: string
  /** A fresh SDK client (its own `_ensureWorkspace` memo) on this server. */
  client(workspaceId: string, apiKey?: string): Honcho
  stop(): Promise<void>
}

/** The Honcho app served on 127.0.0.1 with an ephemeral port, for the real `@honcho-ai/sdk`. */
export async function startLiveServer(
  options: Parameters<typeof openTestServer>[0] = {},
): Promise<LiveServer> {
  const test = await openTestServer(options)
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
    (resolve) => {
      const server = serve({ fetch: test.app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
        resolve({ server, port: info.port }),
      )
    },
  )
  const baseURL = `http://127.0.0.1:${port}`
  return {
    ...test,
    baseURL,
    client: (workspaceId, apiKey) =>
      new Honcho({ baseURL, workspaceId, maxRetries: 0, ...(apiKey ? { apiKey } : {}) }),
    async stop() {
      await new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections()
        server.close(() => resolve())
      })
      await test.close()
    },
  }
}

/** Polls the SDK's queue status until nothing is pending or in progress (what Honcho clients do). */
export async function waitForQueue(honcho: Honcho, timeoutMs = 20_000): Promise<number> {
  const started = Date.now()
  let polls = 0
  for (;;) {
    polls += 1
    const status = await honcho.queueStatus()
    if (status.pendingWorkUnits + status.inProgressWorkUnits === 0) return polls
    if (Date.now() - started > timeoutMs) throw new Error(`queue still busy: ${JSON.stringify(status)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
