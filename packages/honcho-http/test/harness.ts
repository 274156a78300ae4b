import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Store } from '@hymem/core-store'
import { createFakeEmbeddings } from '@hymem/extraction'
import { createHyMem, type HyMem, type HyMemOptions, openHyMemStore } from 'hymem'
import { createHonchoApp } from '../src/app'
import type { HonchoAppOptions, HonchoLogEvent } from '../src/types'

export interface TestServer {
  readonly memory: HyMem
  /** The store under `memory`, opened apart (the app never sees it): for seeding and checking raw rows. */
  readonly coreStore: Store
  readonly app: ReturnType<typeof createHonchoApp>
  readonly root: string
  readonly events: HonchoLogEvent[]
  /** JSON request helper: `call('POST', '/v3/workspaces', { id: 'w' })`. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>
  close(): Promise<void>
}

/** A HyMem on a temp-dir SQLite file (rules extractor, fake embeddings) behind a Honcho app. */
export async function openTestServer(
  options: Omit<HonchoAppOptions, 'memory'> & { memory?: Partial<HyMemOptions> } = {},
): Promise<TestServer> {
  const root = mkdtempSync(join(tmpdir(), 'hymem-honcho-'))
  // The SQLite file by default; the *.postgres.test.ts files run the same contracts on PostgreSQL through this.
  const database = options.memory?.database ?? process.env.HYMEM_HTTP_CONTRACT_DATABASE
  const clock = options.memory?.clock
  const store = await openHyMemStore({ root, ...(database ? { database } : {}), ...(clock ? { clock } : {}) })
  const memory = await createHyMem({
    root,
    store,
    llm: null,
    embeddings: createFakeEmbeddings({ dimensions: 256 }),
    dreamCooldownMs: 0,
    ...options.memory,
  })
  const events: HonchoLogEvent[] = []
  const { memory: _ignored, ...appOptions } = options
  const app = createHonchoApp({
    backgroundDreaming: false,
    ...appOptions,
    memory,
    log: (event) => events.push(event),
  })
  return {
    memory,
    coreStore: store,
    app,
    root,
    events,
    async call(method, path, body, headers = {}) {
      return app.request(path, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      })
    },
    async close() {
      await app.idle()
      await memory.close()
      await store.close()
      rmSync(root, { recursive: true, force: true })
    },
  }
}
