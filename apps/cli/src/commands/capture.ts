import { EXIT_FAILURE, ExitError } from '../exit-error'
import type { DreamReport } from '../facade-types'
import type { CliContext } from '../io'
import { withHyMem } from '../open-hymem'
import type { GlobalOptions } from '../program'
import { readInput } from '../read-input'
import { type CaptureLine, parseCapture } from './capture-parse'
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

/**
 * Logs a JSONL (or JSON array) conversation file. Every line is validated first; if any is bad nothing is
 * written and each problem is reported as `line N: ...`.
 */
export async function captureCommand(
  source: string,
  options: CaptureCommandOptions,
  ctx: CliContext,
): Promise<CaptureResult> {
  const parsed = parseCapture(await readInput(source, ctx))
  if (!parsed.ok) {
    for (const problem of parsed.problems) ctx.stderr.write(`error: ${problem}\n`)
    const { total } = parsed
    const shown = total > parsed.problems.length ? ` (the first ${parsed.problems.length} are listed)` : ''
    const where = source === '-' ? 'stdin' : source
    throw new ExitError(
      EXIT_FAILURE,
      `${total === 1 ? 'a bad line' : `${total} bad lines`} in ${where}${shown}; nothing was written`,
    )
  }
  const bySession = groupBySession(parsed.lines)
  const result = await withHyMem(options, ctx, async (hymem) => {
    const sessions: Record<string, number> = {}
    for (const [sessionId, lines] of bySession) {
      const messages = await hymem.logMessages(
        sessionId,
        lines.map((line) => ({
          peerId: line.peerId ?? line.role ?? 'user',
          ...(line.role ? { role: line.role } : {}),
          content: line.content,
          ...(line.createdAt ? { createdAt: line.createdAt } : {}),
          ...(line.metadata ? { metadata: line.metadata } : {}),
        })),
      )
      sessions[sessionId] = messages.length
    }
    const dream = options.dream ? await runDream(hymem, undefined, ctx) : null
    return { workspaceId: hymem.workspaceId, messages: parsed.lines.length, sessions, dream }
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

function groupBySession(lines: readonly CaptureLine[]): Map<string, CaptureLine[]> {
  const groups = new Map<string, CaptureLine[]>()
  for (const line of lines) {
    const group = groups.get(line.sessionId)
    if (group) group.push(line)
    else groups.set(line.sessionId, [line])
  }
  return groups
}
