/**
 * A child process that drives a store file, for the concurrency and crash tests.
 *   ingest <path> <batches> <size>  — insertBatch N batches (N = 0: until killed), printing `committed k`
 *   read <path> <ms>                — counts, pages and FTS-searches in a loop, checking batches are whole
 *   dream <path> <runs>             — writes dream_runs rows start → finish
 *   upgrade <path> <rows>           — opens (migrating) and SIGKILLs itself once a migration step has done
 *                                     `rows` rows, printing `upgrade <done>/<total>` on the way
 * Prints one JSON summary line at the end; exits 1 on any error.
 */
import { openStore } from '../../src/engine/sqlite/open-store'

const [role, path, arg1, arg2] = process.argv.slice(2)
if (!role || !path) throw new Error('usage: store-worker <role> <path> ...')

const store = openStore({
  path,
  ...(role === 'upgrade'
    ? {
        log: (event) => {
          if (event.kind !== 'upgrade') return
          process.stdout.write(`upgrade ${event.done}/${event.total}\n`)
          if (event.done >= Number(arg1)) process.kill(process.pid, 'SIGKILL')
        },
      }
    : {}),
})
const summary: Record<string, unknown> = { role, errors: [] as string[] }
const errors = summary.errors as string[]

try {
  if (role === 'ingest') {
    const batches = Number(arg1)
    const size = Number(arg2)
    for (let k = 1; batches === 0 || k <= batches; k++) {
      const messages = Array.from({ length: size }, (_, i) => ({
        peerId: i % 2 === 0 ? 'user-1' : 'hermes',
        content: `batch ${k} message ${i} about postgres replication and sqlite wal mode`,
        metadata: { batch: k },
      }))
      await store.messages.insertBatch('w', `s${k % 4}`, messages)
      process.stdout.write(`committed ${k}\n`)
    }
    summary.batches = batches
  } else if (role === 'read') {
    const until = Date.now() + Number(arg1)
    let reads = 0
    let last = 0
    const size = Number(arg2)
    while (Date.now() < until) {
      const count = await store.messages.count('w')
      if (count < last) errors.push(`count went backwards: ${last} → ${count}`)
      if (count % size !== 0) errors.push(`saw a partial batch: ${count} messages`)
      last = count
      await store.fullText.search('messages', 'postgres replication', {
        workspaceId: 'w',
        limit: 10,
      })
      await store.messages.listBySession('w', 's1', { reverse: true, size: 20 })
      await store.dreamRuns.recent('w', 5)
      reads++
    }
    summary.reads = reads
    summary.lastCount = last
  } else if (role === 'dream') {
    const runs = Number(arg1)
    for (let i = 0; i < runs; i++) {
      const id = await store.dreamRuns.start('w', { extractor: 'test', promptVersion: 'v1' })
      await store.dreamRuns.finish('w', id, { status: 'ok', chunksCreated: i })
    }
    summary.runs = runs
  } else if (role === 'upgrade') {
    errors.push(`the upgrade finished before ${arg1} rows`)
  } else {
    throw new Error(`unknown role ${role}`)
  }
} catch (error) {
  errors.push(String((error as Error & { code?: string }).code ?? ''), (error as Error).message)
}
await store.close()
process.stdout.write(`${JSON.stringify(summary)}\n`)
process.exit(errors.length === 0 ? 0 : 1)
