import { Honcho } from '@honcho-ai/sdk'
import { freeLoopbackPort } from '@hymem/extraction/testing'
import { createHyMem, type HyMem, openHyMemStore } from 'hymem'
import { afterEach, describe, expect, it } from 'vitest'
import { type RunningBinary, startBinary } from './running-binary'

/**
 * Several hymem-honcho processes on one real PostgreSQL database (HYMEM_TEST_DATABASE_URL, a fresh schema):
 * concurrent writers through every server, a dream killed with SIGKILL in one, the others finishing its work.
 */
const serverUrl = process.env.HYMEM_TEST_DATABASE_URL

const WS = 'shared'
/** The workspace's dream lock (named as `@hymem/dreaming` names it). */
const DREAM_LOCK = `dream:${WS}`
const SESSIONS = 8
const BATCHES = 6
const PER_BATCH = 12

const memories: { close(): Promise<void> }[] = []

afterEach(async () => {
  for (const memory of memories.splice(0)) await memory.close()
})

async function startServer(database: string): Promise<RunningBinary> {
  return startBinary({
    HYMEM_DATABASE_URL: database,
    HYMEM_ROOT: '',
    HYMEM_EMBEDDING_PROVIDER: 'none',
    HYMEM_LLM_API_KEY: '',
    DEEPSEEK_API_KEY: '',
    HYMEM_LOG_LEVEL: 'warn',
    HYMEM_DREAM_COOLDOWN_SECONDS: '1',
    HYMEM_HONCHO_PORT: String(await freeLoopbackPort()),
  })
}

interface QueueStatus {
  total_work_units: number
  completed_work_units: number
  in_progress_work_units: number
  pending_work_units: number
}

async function queueStatus(server: RunningBinary): Promise<QueueStatus> {
  const response = await fetch(`${server.url}/v3/workspaces/${WS}/queue/status`)
  expect(response.status).toBe(200)
  return (await response.json()) as QueueStatus
}

/** Polls `check` (every 20 ms, at most `turns` times) until it returns a value. */
async function until<T>(what: string, check: () => Promise<T | null>, turns = 3000): Promise<T> {
  for (let turn = 0; turn < turns; turn++) {
    const value = await check()
    if (value !== null) return value
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`gave up waiting for ${what}`)
}

const text = (session: number, batch: number, i: number) =>
  `In project ${session}, service-${session}-${batch}-${i} depends on cache-${(batch * PER_BATCH + i) % 9}.`

type DumpRecord = Record<string, unknown> & { type: string }

async function dumpOf(memory: HyMem): Promise<DumpRecord[]> {
  const records: DumpRecord[] = []
  for await (const line of memory.export({ workspaceId: WS })) {
    if (line.trim() !== '') records.push(JSON.parse(line) as DumpRecord)
  }
  return records
}

function duplicates(keys: readonly string[]): string[] {
  const seen = new Set<string>()
  const twice: string[] = []
  for (const key of keys) {
    if (seen.has(key)) twice.push(key)
    seen.add(key)
  }
  return twice
}

if (serverUrl)
  describe('several hymem-honcho servers on one PostgreSQL database', () => {
    it('share writes and queue status, dream one at a time, and finish the work of a server killed mid-dream', async () => {
      const schema = `multi_${process.pid}_${Date.now().toString(36)}`
      const database = `${serverUrl}${serverUrl.includes('?') ? '&' : '?'}schema=${schema}`
      const servers = [await startServer(database), await startServer(database)]
      const watcher = await createHyMem({ database, embeddings: null })
      memories.push(watcher)
      const watcherStore = await openHyMemStore({ database })
      memories.push(watcherStore)
      const clients = servers.map((s) => new Honcho({ baseURL: s.url, workspaceId: WS, maxRetries: 0 }))

      // Concurrent writers: every session writes its batches alternately through both servers.
      const sent: string[] = []
      await Promise.all(
        Array.from({ length: SESSIONS }, async (_, session) => {
          for (let batch = 0; batch < BATCHES; batch++) {
            const honcho = clients[(session + batch) % 2]!
            const [s, peer] = await Promise.all([
              honcho.session(`s${session}`),
              honcho.peer(`peer${session}`),
            ])
            const contents = Array.from({ length: PER_BATCH }, (_, i) => text(session, batch, i))
            sent.push(...contents)
            await s.addMessages(contents.map((content) => peer.message(content)))
          }
        }),
      )
      // Writes through either server are visible through both, in order.
      for (const honcho of clients) {
        const session = await honcho.session('s3')
        const seen: string[] = []
        for await (const message of await session.messages()) seen.push(message.content)
        expect(seen).toEqual(sent.filter((content) => content.startsWith('In project 3,')))
      }

      // A dream in the middle of extraction: some server holds the lock, and chunks wait for extraction.
      const holder = await until('a dream in the middle of its extraction', async () => {
        const lock = await watcherStore.runLock.inspect(DREAM_LOCK)
        if (!lock) return null
        const backlog = await watcher.queue.backlog(WS)
        return backlog.pendingChunks > 0 ? lock : null
      })
      const victim = servers.find((s) => s.child.pid === holder.pid)
      if (!victim)
        throw new Error(`the dream lock is held by pid ${holder.pid}, not by a server of this test`)
      const survivor = servers.find((s) => s !== victim)!
      // Both servers see the dream: the one without it reports the work in progress too.
      for (const server of servers) {
        const status = await queueStatus(server)
        expect(status.in_progress_work_units).toBeGreaterThan(0)
      }
      victim.child.kill('SIGKILL')
      await victim.exit

      // The survivor takes the lock (released with the killed server's connection) and finishes the work.
      const done = await until('the survivor to finish the work', async () => {
        const status = await queueStatus(survivor)
        const backlog = await watcher.queue.backlog(WS)
        const idle = status.pending_work_units === 0 && status.in_progress_work_units === 0
        return idle && !backlog.running && backlog.pendingChunks === 0 && backlog.pendingMessages === 0
          ? status
          : null
      })
      expect(done).toMatchObject({ total_work_units: sent.length, completed_work_units: sent.length })
      const runs = await watcherStore.dreamRuns.recent(WS, 1000)
      expect(runs.filter((run) => run.status === 'running')).toEqual([])
      expect(
        runs.filter((run) => run.errors.includes('interrupted: the process ended mid-cycle')),
      ).toHaveLength(1)

      // A server started now reports the same queue status as the survivor.
      const late = await startServer(database)
      expect(await queueStatus(late)).toEqual(await queueStatus(survivor))

      // Nothing lost, nothing written twice.
      const dump = await dumpOf(watcher)
      const of = (type: string) => dump.filter((record) => record.type === type)
      const messages = of('message').map((m) => String(m.content))
      expect(messages.sort()).toEqual([...sent].sort())
      const messageIds = of('message').map((m) => String(m.id))
      const chunked = of('chunk').flatMap((c) => c.messageIds as string[])
      expect(duplicates(chunked)).toEqual([])
      expect(chunked.sort()).toEqual(messageIds.sort())
      for (const chunk of of('chunk')) expect(chunk.processed).toHaveLength(1)
      const edges = of('edge')
      expect(edges.length).toBeGreaterThan(0)
      expect(duplicates(edges.map((e) => `${e.subject}|${e.predicate}|${e.object}|${e.derived}`))).toEqual([])
      const evidence = edges.flatMap((e) =>
        (e.evidence as Record<string, unknown>[]).map(
          (ev) => `${e.subject}|${e.predicate}|${e.object}|${ev.chunk}|${ev.polarity}|${ev.evidenceText}`,
        ),
      )
      expect(duplicates(evidence)).toEqual([])
      for (const type of ['episode', 'procedure']) {
        expect(duplicates(of(type).flatMap((record) => (record.chunks as number[]).map(String)))).toEqual([])
      }
      expect(duplicates(of('marker').map((m) => `${m.chunk}|${m.kind}|${m.statement}`))).toEqual([])
      expect(duplicates(of('session').map((s) => String(s.id)))).toEqual([])
    }, 240_000)
  })
