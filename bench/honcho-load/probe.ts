/**
 * The `/health` probe of the load bench, in its own process as a load balancer's would be, so the load
 * clients' event loop never delays a probe or its timing: a GET every `everyMs`; on SIGTERM it prints
 * one JSON line, `{ answers: [[startedAtMs, latencyMs, probeQueuedMs], ...], errors }`, and exits.
 * `probeQueuedMs` is how long the probe's own thread waited for a CPU during that probe (Linux
 * schedstat; 0 elsewhere): on a busy machine part of a slow answer is the probe's, not the server's.
 *
 *   node --import tsx bench/honcho-load/probe.ts <url> <everyMs>
 */
import { readFileSync } from 'node:fs'

const [url, every] = process.argv.slice(2)
const everyMs = Number(every ?? 100)
if (!url || !Number.isFinite(everyMs)) throw new Error('usage: probe.ts <url> <everyMs>')

/** Nanoseconds this thread has waited for a CPU. */
function queuedNs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[1] ?? 0)
  } catch {
    return 0
  }
}

const started = performance.now()
const answers: [number, number, number][] = []
const errors: string[] = []
const probing = new Set<Promise<void>>()
const timer = setInterval(() => {
  const at = performance.now()
  const queuedBefore = queuedNs()
  const probe = fetch(`${url}/health`)
    .then(async (response) => {
      await response.arrayBuffer()
      answers.push([at - started, performance.now() - at, (queuedNs() - queuedBefore) / 1e6])
    })
    .catch((error: unknown) => {
      errors.push(error instanceof Error ? error.message : String(error))
    })
    .finally(() => probing.delete(probe))
  probing.add(probe)
}, everyMs)
process.stdout.write('ready\n')

process.once('SIGTERM', () => {
  clearInterval(timer)
  void Promise.all(probing).then(() => {
    process.stdout.write(`${JSON.stringify({ answers, errors })}\n`, () => process.exit(0))
  })
})
