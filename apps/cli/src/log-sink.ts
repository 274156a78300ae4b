import { filterLog, type HyMemConfig, type HyMemLog, type HyMemLogEvent } from 'hymem'
import { createProgress, type Progress } from './format/progress'
import type { CliOutput } from './io'

/**
 * The facade's log events as one line each on stderr. Unless HYMEM_LOG_LEVEL is set explicitly only
 * warnings and errors show. The facade's start-up notices never do: the configuration notes printed at
 * start-up already say the same (e.g. that no LLM key is set). A schema upgrade that works through stored
 * rows always shows: one line when it starts, and a progress bar on a terminal.
 */
export function createLogSink(
  config: HyMemConfig,
  env: Readonly<Record<string, string | undefined>>,
  stderr: CliOutput,
): HyMemLog {
  const explicit = (env.HYMEM_LOG_LEVEL ?? '').trim() !== ''
  const upgrade = upgradeDisplay(stderr)
  const filtered = filterLog(explicit ? config.logLevel : 'warn', (event) => {
    if (event.kind !== 'notice') stderr.write(`${formatLogEvent(event)}\n`)
  })
  return (event) => {
    if (event.kind === 'store' && event.event.kind === 'upgrade' && !explicit) upgrade(event.event)
    else filtered(event)
  }
}

type UpgradeEvent = Extract<Extract<HyMemLogEvent, { kind: 'store' }>['event'], { kind: 'upgrade' }>

/** Announces each upgrading migration once and draws its progress until all its rows are done. */
function upgradeDisplay(stderr: CliOutput): (event: UpgradeEvent) => void {
  const finished = new Set<string>()
  let running: { migration: string; progress: Progress } | null = null
  return ({ migration, table, done, total }) => {
    if (finished.has(migration)) return
    if (running?.migration !== migration) {
      running?.progress.stop()
      stderr.write(
        `note: upgrading the memory store (migration ${migration}: ${total.toLocaleString('en-US')} rows to go through; an interrupted upgrade starts again on the next run)\n`,
      )
      running = { migration, progress: createProgress(stderr, 'upgrading') }
    }
    running.progress.update(done, total, table)
    if (done >= total) {
      running.progress.stop()
      finished.add(migration)
      running = null
    }
  }
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
