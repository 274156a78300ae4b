import type { HonchoLogEvent } from '@hymem/honcho-http'
import { filterLog, type HyMemLog, type HyMemLogEvent, type LogLevel } from 'hymem'

type Write = (line: string) => void

/**
 * The facade's events at `level` and above, one line each. Its start-up notices are left out: the server
 * has already printed the configuration notes, which say the same (e.g. that no LLM key is set).
 */
export function facadeLog(level: LogLevel, write: Write): HyMemLog {
  return filterLog(level, (event) => {
    if (event.kind !== 'notice') write(`[hymem] ${event.level} ${describe(event)}`)
  })
}

/**
 * The HTTP layer's unexpected errors and failed background dreams, with their stack; at `debug`, also the
 * clients that went away before their answer (one line, no stack: an expected event).
 */
export function httpLog(level: LogLevel, write: Write): (event: HonchoLogEvent) => void {
  return (event) => {
    if (event.kind === 'client-aborted') {
      if (level === 'debug') write(`[hymem-honcho] debug client closed ${event.method} ${event.path}`)
      return
    }
    if (event.kind !== 'error' && event.kind !== 'dream-failed') return
    const error =
      event.error instanceof Error ? (event.error.stack ?? event.error.message) : String(event.error)
    write(`[hymem-honcho] ${event.kind} ${'path' in event ? event.path : event.workspaceId}: ${error}`)
  }
}

function describe(event: HyMemLogEvent): string {
  const { kind, level: _level, ...rest } = event
  return `${kind} ${JSON.stringify(rest, (_key, value) => (value instanceof Error ? value.message : value))}`
}
