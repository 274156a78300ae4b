import type { HyMem } from 'hymem'
import { EXIT_FAILURE, ExitError } from '../exit-error'
import type { DreamProgress, DreamReport } from '../facade-types'
import { createProgress } from '../format/progress'
import { renderTable } from '../format/table'
import type { CliContext } from '../io'
import { withHyMem } from '../open-hymem'
import type { GlobalOptions } from '../program'

/** Options of `hymem dream`. */
export interface DreamCommandOptions extends GlobalOptions {
  /** Most chunks extracted this cycle. @default HYMEM_DREAM_BUDGET */
  readonly budget?: number
  readonly json?: boolean
}

/** Runs one dreaming cycle with a progress bar on a terminal, then prints its summary. */
export async function dreamCommand(options: DreamCommandOptions, ctx: CliContext): Promise<DreamReport> {
  const report = await withHyMem(options, ctx, (hymem) => runDream(hymem, options.budget, ctx))
  ctx.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : renderDreamReport(report))
  failOnBadDream(report)
  return report
}

/** One cycle with a progress bar on stderr (when it is a terminal). */
export async function runDream(
  hymem: HyMem,
  budget: number | undefined,
  ctx: CliContext,
): Promise<DreamReport> {
  const progress = createProgress(ctx.stderr, 'dreaming')
  let phase = 'starting'
  const onProgress = (event: DreamProgress) => {
    if (event.kind === 'phase-start') {
      phase = event.phase
      progress.label(phase)
    } else if (event.kind === 'chunk') {
      progress.update(event.index, event.total, `${phase}: chunk ${event.index}/${event.total}`)
    } else if (event.kind === 'session') {
      progress.update(event.index, event.total, `${phase}: session ${event.sessionId}`)
    }
  }
  try {
    return await hymem.dream({
      ...(budget !== undefined ? { budget } : {}),
      ...(ctx.interruptible ? { signal: ctx.interruptible() } : {}),
      onProgress,
    })
  } finally {
    progress.stop()
  }
}

/** A skipped (lock held) or failed cycle is a failure of the command. */
export function failOnBadDream(report: DreamReport): void {
  if (report.status === 'skipped') {
    throw new ExitError(
      EXIT_FAILURE,
      `dream skipped: ${report.skipReason ?? 'unknown reason'} (another dream holds the lock; try again in a moment)`,
    )
  }
  if (report.status === 'aborted') {
    throw new ExitError(130, 'dream interrupted: what it finished is kept, the next dream does the rest')
  }
  if (report.status === 'failed') {
    throw new ExitError(EXIT_FAILURE, `dream ${report.status}: ${report.errors[0] ?? 'see the errors above'}`)
  }
}

/** `edgesCreated` → `edges created`. */
function label(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()
}

/** The readable summary table of a dreaming cycle (timings on their own last line). */
export function renderDreamReport(report: DreamReport): string {
  const rows: string[][] = [
    ['chunks created', String(report.chunksCreated)],
    ['chunks extracted', String(report.chunksProcessed)],
    ['chunks pending', String(report.chunksPending)],
    ['edges upserted', String(report.edgesUpserted)],
  ]
  for (const [key, value] of Object.entries(report.counts)) {
    if (value === 0) continue
    rows.push([label(key), String(value)])
  }
  const llm =
    report.llmCalls > 0
      ? `LLM: ${report.llmCalls} call${report.llmCalls === 1 ? '' : 's'}, ${report.promptTokens} prompt + ${report.completionTokens} completion tokens\n`
      : ''
  const head = `Dream ${report.status} · workspace ${report.workspaceId} · extractor ${report.extractor} · prompt ${report.promptVersion}`
  const errors = report.errors.map((e) => `  ! ${e}\n`).join('')
  const pending = report.chunksPending
  const more =
    pending > 0 ? `${pending} chunk${pending === 1 ? '' : 's'} still pending: run "hymem dream" again\n` : ''
  const table = renderTable(rows, { align: ['left', 'right'] })
  return `${head}\n${table}${llm}${errors}${more}${renderTimings(report.timings)}`
}

function renderTimings(timings: Readonly<Record<string, number>>): string {
  const total = timings.total
  const phases = Object.entries(timings)
    .filter(([name, ms]) => name !== 'total' && ms >= 1)
    .map(([name, ms]) => `${name} ${formatMs(ms)}`)
  return `time ${total === undefined ? '?' : formatMs(total)}${phases.length > 0 ? ` (${phases.join(', ')})` : ''}\n`
}

/** `3.2 ms` / `850 ms` / `2.4 s`. */
export function formatMs(ms: number): string {
  if (ms < 10) return `${ms.toFixed(1)} ms`
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}
