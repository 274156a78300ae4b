/**
 * A long-task detector for the load server's event loop: a 5 ms timer notices every stall longer than
 * `thresholdMs`, and the HTTP server's diagnostics channels tell which requests were in flight meanwhile.
 * On Linux the thread's scheduler statistics (`/proc/thread-self/schedstat`) split a stall into time the
 * thread ran (work on the loop), time it waited for a CPU (other processes had the cores) and the rest
 * (blocked in a system call), and a sampling thread reads the main thread's state and system call
 * (`/proc/self/task/<pid>/stat`, `.../syscall`) every 2 ms to name what it was blocked in.
 */
import { subscribe } from 'node:diagnostics_channel'
import { readFileSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import { Worker } from 'node:worker_threads'

interface RequestSpan {
  readonly route: string
  readonly start: number
  end: number
}

export interface Stall {
  /** Milliseconds after the detector started. */
  readonly at: number
  readonly ms: number
  /** Time the thread ran on a CPU during the stall. */
  readonly runMs: number
  /** Time the thread was runnable but waited for a CPU. */
  readonly queuedMs: number
  /** Share of the stall's samples per thread state (R running or runnable, D disk, S sleeping in a call). */
  readonly states: Record<string, number>
  /** Routes of the requests in flight during the stall, with how many of each. */
  readonly inFlight: Record<string, number>
}

export interface LongTaskReport {
  readonly stalls: Stall[]
  /** Requests handled per route: how many, their summed and their longest time in the server. */
  readonly routes: Record<string, { count: number; ms: number; maxMs: number }>
}

const TICK_MS = 5

/** Stalls of the load server's event loop shorter than this are not recorded. */
export const LONG_TASK_MS = 50

/** x86-64 system call numbers a blocked event loop may sit in. */
const SYSCALLS: Record<string, string> = {
  '0': 'read',
  '1': 'write',
  '17': 'pread64',
  '18': 'pwrite64',
  '74': 'fsync',
  '75': 'fdatasync',
  '202': 'futex',
  '232': 'epoll_wait',
  '281': 'epoll_pwait',
  '35': 'nanosleep',
  '230': 'clock_nanosleep',
  '257': 'openat',
  '262': 'newfstatat',
  '72': 'fcntl',
}

const SAMPLER = `
const { parentPort, workerData } = require('node:worker_threads')
const { readFileSync } = require('node:fs')
const stat = '/proc/self/task/' + workerData.tid + '/stat'
const call = '/proc/self/task/' + workerData.tid + '/syscall'
const times = []
const states = []
let stopped = false
parentPort.once('message', () => { stopped = true })
const tick = () => {
  if (stopped) return parentPort.postMessage({ times, states })
  try {
    const line = readFileSync(stat, 'utf8')
    const state = line[line.lastIndexOf(')') + 2]
    times.push(performance.timeOrigin + performance.now())
    states.push(state === 'R' ? 'R' : state + ':' + readFileSync(call, 'utf8').split(' ')[0])
  } catch {}
  setTimeout(tick, 2)
}
tick()
`

interface Samples {
  readonly times: number[]
  readonly states: string[]
}

/** The share of each state among the samples in [from, to] (absolute milliseconds). */
function statesBetween(samples: Samples, from: number, to: number): Record<string, number> {
  const counts: Record<string, number> = {}
  let n = 0
  for (let i = 0; i < samples.times.length; i++) {
    const t = samples.times[i]!
    if (t < from || t > to) continue
    const [state, call] = samples.states[i]!.split(':')
    const name = call === undefined ? state! : `${state}:${SYSCALLS[call] ?? call}`
    counts[name] = (counts[name] ?? 0) + 1
    n++
  }
  for (const name of Object.keys(counts)) counts[name] = Math.round((100 * counts[name]!) / n) / 100
  return counts
}

/** Nanoseconds the calling thread has run and waited to run; zeros where the file does not exist. */
function schedStat(): { run: number; queued: number } {
  try {
    const [run, queued] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number)
    return { run: run ?? 0, queued: queued ?? 0 }
  } catch {
    return { run: 0, queued: 0 }
  }
}

/** `/v3/workspaces/default/sessions/load-3/messages` → `/v3/workspaces/:id/sessions/:id/messages`. */
function routeOf(request: IncomingMessage): string {
  const path = (request.url ?? '').split('?')[0] ?? ''
  const parts = path.split('/')
  const named = parts.map((part, i) =>
    i > 0 && ['workspaces', 'sessions', 'peers'].includes(parts[i - 1]!) ? ':id' : part,
  )
  return `${request.method} ${named.join('/')}`
}

export function watchLongTasks(thresholdMs: number): () => Promise<LongTaskReport> {
  const origin = performance.now()
  const sampler = new Worker(SAMPLER, { eval: true, workerData: { tid: process.pid } })
  const sampled = new Promise<Samples>((resolve) => sampler.once('message', resolve))
  const pending: (Omit<Stall, 'states'> & { from: number; to: number })[] = []
  const open = new Map<IncomingMessage, RequestSpan>()
  const done: RequestSpan[] = []
  const onStart = (message: unknown) => {
    const { request } = message as { request: IncomingMessage }
    open.set(request, { route: routeOf(request), start: performance.now(), end: Number.POSITIVE_INFINITY })
  }
  const onFinish = (message: unknown) => {
    const { request } = message as { request: IncomingMessage }
    const span = open.get(request)
    if (!span) return
    open.delete(request)
    span.end = performance.now()
    done.push(span)
  }
  subscribe('http.server.request.start', onStart)
  subscribe('http.server.response.finish', onFinish)
  let last = performance.now()
  let lastSched = schedStat()
  const timer = setInterval(() => {
    const now = performance.now()
    const sched = schedStat()
    if (now - last > thresholdMs + TICK_MS) {
      const from = last
      const inFlight: Record<string, number> = {}
      for (const span of [...done, ...open.values()]) {
        if (span.start < now && span.end > from) inFlight[span.route] = (inFlight[span.route] ?? 0) + 1
      }
      pending.push({
        from: performance.timeOrigin + from,
        to: performance.timeOrigin + now,
        at: Math.round(from - origin),
        ms: Math.round(now - from - TICK_MS),
        runMs: Math.round((sched.run - lastSched.run) / 1e6),
        queuedMs: Math.round((sched.queued - lastSched.queued) / 1e6),
        inFlight,
      })
    }
    last = now
    lastSched = sched
  }, TICK_MS)
  return async () => {
    clearInterval(timer)
    sampler.postMessage('stop')
    const samples = await sampled
    await sampler.terminate()
    const stalls = pending.map(({ from, to, ...stall }) => ({
      ...stall,
      states: statesBetween(samples, from, to),
    }))
    const routes: LongTaskReport['routes'] = {}
    for (const span of done) {
      const entry = routes[span.route] ?? { count: 0, ms: 0, maxMs: 0 }
      entry.count++
      entry.ms += span.end - span.start
      entry.maxMs = Math.max(entry.maxMs, span.end - span.start)
      routes[span.route] = entry
    }
    return { stalls, routes }
  }
}

/** The stalls of a window, summed: where the loop's stalled time went. */
export interface StallSummary {
  readonly count: number
  /** The longest stall, split into what the thread did meanwhile. */
  readonly worst: { readonly ms: number; readonly runMs: number; readonly queuedMs: number }
  /** The most CPU time the thread spent inside one stall: the longest the server's own work held the loop. */
  readonly maxRunMs: number
  readonly totalMs: number
  readonly runMs: number
  readonly queuedMs: number
}

/** Sums the stalls that started in [fromMs, toMs] (milliseconds after the detector started). */
export function summarizeStalls(report: LongTaskReport, fromMs: number, toMs: number): StallSummary {
  const stalls = report.stalls.filter((stall) => stall.at >= fromMs && stall.at <= toMs)
  const worst = stalls.reduce<Stall | null>((a, b) => (a && a.ms >= b.ms ? a : b), null)
  const sum = (pick: (stall: Stall) => number) => stalls.reduce((n, stall) => n + pick(stall), 0)
  return {
    count: stalls.length,
    worst: worst
      ? { ms: worst.ms, runMs: worst.runMs, queuedMs: worst.queuedMs }
      : { ms: 0, runMs: 0, queuedMs: 0 },
    maxRunMs: Math.max(0, ...stalls.map((stall) => stall.runMs)),
    totalMs: sum((stall) => stall.ms),
    runMs: sum((stall) => stall.runMs),
    queuedMs: sum((stall) => stall.queuedMs),
  }
}
