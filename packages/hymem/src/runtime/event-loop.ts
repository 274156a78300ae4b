import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks'
import type { EventLoopDelay } from './types'

const WINDOW_MS = 10_000
const RESOLUTION_MS = 10

interface Window {
  readonly p50Ms: number
  readonly p99Ms: number
  readonly maxMs: number
  readonly ms: number
}

interface Monitor {
  readonly histogram: IntervalHistogram
  readonly timer: NodeJS.Timeout
  windowStart: number
  previous: Window | null
  users: number
}

/** One monitor per thread, shared by every facade of the thread. */
let monitor: Monitor | null = null

/** The histogram records the time between two samples: the lag is what exceeds the sampling interval. */
const ms = (nanoseconds: number) =>
  Number.isFinite(nanoseconds) ? Math.max(0, nanoseconds / 1e6 - RESOLUTION_MS) : 0

function snapshot(m: Monitor): Window {
  const h = m.histogram
  if (h.count === 0) return { p50Ms: 0, p99Ms: 0, maxMs: 0, ms: performance.now() - m.windowStart }
  return {
    p50Ms: ms(h.percentile(50)),
    p99Ms: ms(h.percentile(99)),
    maxMs: ms(h.max),
    ms: performance.now() - m.windowStart,
  }
}

/**
 * Starts (or joins) this thread's event-loop delay monitor; call the returned function once to leave it.
 * The monitor samples every 10 ms and keeps two 10-second windows.
 */
export function _watchEventLoop(): () => void {
  if (!monitor) {
    const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS })
    histogram.enable()
    const started: Monitor = {
      histogram,
      timer: setInterval(() => {
        started.previous = snapshot(started)
        started.histogram.reset()
        started.windowStart = performance.now()
      }, WINDOW_MS),
      windowStart: performance.now(),
      previous: null,
      users: 0,
    }
    started.timer.unref()
    monitor = started
  }
  const joined = monitor
  joined.users++
  let left = false
  return () => {
    if (left) return
    left = true
    joined.users--
    if (joined.users > 0) return
    clearInterval(joined.timer)
    joined.histogram.disable()
    if (monitor === joined) monitor = null
  }
}

/** The delay over the current and the previous window (the worse of each figure); zeros when not watched. */
export function _eventLoopDelay(): EventLoopDelay {
  if (!monitor) return { p50Ms: 0, p99Ms: 0, maxMs: 0, windowMs: 0 }
  const current = snapshot(monitor)
  const previous = monitor.previous
  const round = (n: number) => Math.round(n * 100) / 100
  if (!previous) {
    return {
      p50Ms: round(current.p50Ms),
      p99Ms: round(current.p99Ms),
      maxMs: round(current.maxMs),
      windowMs: Math.round(current.ms),
    }
  }
  return {
    p50Ms: round(Math.max(current.p50Ms, previous.p50Ms)),
    p99Ms: round(Math.max(current.p99Ms, previous.p99Ms)),
    maxMs: round(Math.max(current.maxMs, previous.maxMs)),
    windowMs: Math.round(current.ms + previous.ms),
  }
}
