import type { DreamReport } from '../facade-types'
import type { CliContext } from '../io'
import { withHyMem } from '../open-hymem'
import type { GlobalOptions } from '../program'
import { formatMs } from './dream'
import { dreamUntilStopped } from './worker-loop'

/** Options of `hymem worker`. */
export interface WorkerCommandOptions extends GlobalOptions {
  /** Seconds between two looks at the queue when there is nothing to dream. @default 2 */
  readonly idleSeconds?: number
  /** Exit once no workspace has pending work. */
  readonly once?: boolean
  /** One JSON object a line per dream instead of readable lines. */
  readonly json?: boolean
}

const STALLED_MS = 60_000
/** A cycle of a busy workspace takes about a second; looking again this often costs one backlog scan. */
const BUSY_MS = 200

/**
 * Dreams every workspace of the configured database that has pending work, in turn, until stopped: SIGTERM
 * or Ctrl-C lets the running dream stop at its next checkpoint (what it committed is kept), then exits 0.
 * Several workers, and servers, share the work through the dream locks.
 */
export async function workerCommand(
  options: WorkerCommandOptions,
  ctx: CliContext,
): Promise<{ dreams: number }> {
  const signal = ctx.interruptible?.() ?? new AbortController().signal
  return withHyMem(options, ctx, async (hymem) => {
    ctx.stderr.write(
      `hymem worker dreaming ${hymem.database.backend} ${hymem.database.location} with ${hymem.extractor.name} (pid ${process.pid})\n`,
    )
    const dreams = await dreamUntilStopped(hymem, {
      signal,
      idleMs: (options.idleSeconds ?? 2) * 1000,
      busyMs: BUSY_MS,
      stalledMs: STALLED_MS,
      once: options.once === true,
      onDream: (report) =>
        ctx.stdout.write(options.json ? `${JSON.stringify(report)}\n` : `${dreamLine(report, ctx)}\n`),
    })
    ctx.stderr.write(`hymem worker stopped after ${dreams} dream${dreams === 1 ? '' : 's'}\n`)
    return { dreams }
  })
}

function dreamLine(report: DreamReport, ctx: CliContext): string {
  const at = (ctx.clock?.() ?? new Date()).toISOString()
  const status = report.skipReason ? `${report.status} (${report.skipReason})` : report.status
  const errors = report.errors.length > 0 ? `, ${report.errors.length} errors: ${report.errors[0]}` : ''
  return `${at} ${report.workspaceId}: ${status}, ${report.chunksProcessed} chunks extracted, ${report.chunksPending} pending, ${formatMs(report.timings.total ?? 0)}${errors}`
}
