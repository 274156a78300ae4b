import type { ReindexReport } from '../facade-types'
import { createProgress } from '../format/progress'
import { renderTable } from '../format/table'
import type { CliContext } from '../io'
import { withHyMem } from '../open-hymem'
import type { GlobalOptions } from '../program'

/** Options of `hymem reindex`. */
export interface ReindexCommandOptions extends GlobalOptions {
  readonly json?: boolean
}

/**
 * Rebuilds the full-text index of every table, then re-embeds everything with the configured model and
 * re-pins the vector indexes (without an embedder, the full-text index only).
 */
export async function reindexCommand(
  options: ReindexCommandOptions,
  ctx: CliContext,
): Promise<ReindexReport> {
  const progress = createProgress(ctx.stderr, 'reindexing')
  const report = await withHyMem(options, ctx, async (hymem) => {
    try {
      return await hymem.reindex({
        onProgress: (event) =>
          progress.update(
            event.done,
            event.total,
            `${event.phase === 'full-text' ? 'full text' : 'vectors'}: ${event.index}`,
          ),
        ...(ctx.interruptible ? { signal: ctx.interruptible() } : {}),
      })
    } finally {
      progress.stop()
    }
  })
  if (options.json) {
    ctx.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
    return report
  }
  const texts = Object.entries(report.fullText).map(([table, count]) => [table, String(count)])
  ctx.stdout.write('Full-text index rebuilt\n')
  ctx.stdout.write(renderTable(texts, { head: ['table', 'rows'], align: ['left', 'right'] }))
  if (report.model === null) {
    ctx.stdout.write('No embedder configured: vectors left as they are\n')
    return report
  }
  const rows = Object.entries(report.vectors).map(([index, count]) => {
    const before = report.previous[index]
    return [index, String(count), before ? `${before.model} (${before.dimensions}-d)` : '-']
  })
  ctx.stdout.write(`Re-indexed with ${report.model} (${report.dimensions}-d)\n`)
  ctx.stdout.write(
    renderTable(rows, { head: ['index', 'vectors', 'previously'], align: ['left', 'right', 'left'] }),
  )
  return report
}
