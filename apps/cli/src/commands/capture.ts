import { EXIT_FAILURE, ExitError } from '../exit-error'
import type { DreamReport } from '../facade-types'
import { createProgress } from '../format/progress'
import type { CliContext } from '../io'
import { withHyMem } from '../open-hymem'
import type { GlobalOptions } from '../program'
import { streamInput } from '../read-input'
import { CaptureProblems, CaptureRejected, captureBatches } from './capture-batches'
import { captureEntries } from './capture-entries'
import { failOnBadDream, renderDreamReport, runDream } from './dream'

/** Options of `hymem capture`. */
export interface CaptureCommandOptions extends GlobalOptions {
  /** Dream right after logging. */
  readonly dream?: boolean
  readonly json?: boolean
}

/** What `hymem capture --json` prints. */
export interface CaptureResult {
  readonly workspaceId: string
  readonly messages: number
  readonly sessions: Record<string, number>
  readonly dream: DreamReport | null
}

const MIB = 1024 * 1024

/**
 * Logs a JSONL (or JSON array) conversation file as it streams in, validating each line and writing in
 * bounded batches inside one transaction: if any line is bad, or Ctrl-C comes first, nothing is stored and
 * each problem is reported as `line N: ...`.
 */
export async function captureCommand(
  source: string,
  options: CaptureCommandOptions,
  ctx: CliContext,
): Promise<CaptureResult> {
  const input = await streamInput(source, ctx)
  const where = source === '-' ? 'stdin' : source
  const signal = ctx.interruptible?.()
  const problems = new CaptureProblems()
  const progress = createProgress(ctx.stderr, 'capturing')
  const result = await withHyMem(options, ctx, async (hymem) => {
    const logged = await hymem
      .logStream(captureBatches(captureEntries(input.text), problems, signal ? { signal } : {}), {
        ...(signal ? { signal } : {}),
        onBatch: ({ messages }) => {
          const mib = (bytes: number) => Math.round(bytes / MIB)
          const read = input.bytesRead()
          progress.update(mib(read), mib(input.size ?? read), `MiB, ${messages} messages`)
        },
      })
      .catch((error: unknown) => {
        throw captureFailure(error, { problems, where, signal, ctx })
      })
      .finally(() => progress.stop())
    const dream = options.dream ? await runDream(hymem, undefined, ctx) : null
    return { workspaceId: hymem.workspaceId, ...logged, dream }
  })
  if (options.json) {
    ctx.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
  } else {
    const count = Object.keys(result.sessions).length
    ctx.stdout.write(
      `Captured ${result.messages} message${result.messages === 1 ? '' : 's'} in ${count} session${count === 1 ? '' : 's'} (workspace ${result.workspaceId})\n`,
    )
    if (result.dream) ctx.stdout.write(renderDreamReport(result.dream))
    else ctx.stdout.write('Run "hymem dream" to turn them into memory.\n')
  }
  if (result.dream) failOnBadDream(result.dream)
  return result
}

function captureFailure(
  error: unknown,
  at: { problems: CaptureProblems; where: string; signal: AbortSignal | undefined; ctx: CliContext },
): unknown {
  if (at.signal?.aborted) return new ExitError(130, 'capture interrupted: nothing was written')
  if (!(error instanceof CaptureRejected)) return error
  const { total, listed } = at.problems
  for (const problem of listed) at.ctx.stderr.write(`error: ${problem}\n`)
  const shown = total > listed.length ? ` (the first ${listed.length} are listed)` : ''
  return new ExitError(
    EXIT_FAILURE,
    `${total === 1 ? 'a bad line' : `${total} bad lines`} in ${at.where}${shown}; nothing was written`,
  )
}
