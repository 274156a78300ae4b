import { filterLog, type HyMemConfig, type HyMemLog, type HyMemLogEvent } from 'hymem'
import type { CliOutput } from './io'

/**
 * The facade's log events as one line each on stderr. Unless HYMEM_LOG_LEVEL is set explicitly only
 * warnings and errors show. The facade's start-up notices never do: the configuration notes printed at
 * start-up already say the same (e.g. that no LLM key is set).
 */
export function createLogSink(
  config: HyMemConfig,
  env: Readonly<Record<string, string | undefined>>,
  stderr: CliOutput,
): HyMemLog {
  const explicit = (env.HYMEM_LOG_LEVEL ?? '').trim() !== ''
  return filterLog(explicit ? config.logLevel : 'warn', (event) => {
    if (event.kind !== 'notice') stderr.write(`${formatLogEvent(event)}\n`)
  })
}

/** One line for a log event. */
export function formatLogEvent(event: HyMemLogEvent): string {
  const level = event.level === 'error' ? 'error' : event.level === 'warn' ? 'warn' : 'note'
  switch (event.kind) {
    case 'notice':
      return `${level}: ${event.message}`
    case 'key-check':
      return `${level}: endpoint ${event.url} ${event.outcome}: ${event.detail}`
    case 'dream-failed':
      return `${level}: dream of workspace ${event.workspaceId} failed: ${event.message}`
    case 'embed-failed':
      return `${level}: embedding ${event.what} failed: ${event.message}`
    default: {
      const { kind, level: _level, ...rest } = event
      return `${level}: ${kind} ${JSON.stringify(rest, (_key, value) => (value instanceof Error ? value.message : value))}`
    }
  }
}
