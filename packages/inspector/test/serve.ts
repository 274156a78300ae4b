import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { ensureClientBuilt } from '../build-client'
import { createInspectorApp } from '../src/app'
import type { InspectorOptions } from '../src/types'

export interface ServedInspector {
  /** `http://host:port` */
  readonly origin: string
  close(): Promise<void>
}

/** Builds the browser bundles if needed and serves the inspector (mounted like hymem-honcho mounts it) on a real socket. */
export async function serveInspector(
  options: InspectorOptions,
  hostname = '127.0.0.1',
): Promise<ServedInspector> {
  await ensureClientBuilt()
  const app = new Hono()
  app.route('/', createInspectorApp(options))
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
    (resolve) => {
      const started = serve({ fetch: app.fetch, hostname, port: 0 }, (info: AddressInfo) =>
        resolve({ server: started, port: info.port }),
      )
    },
  )
  return {
    origin: `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`,
    async close() {
      if ('closeAllConnections' in server) server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
