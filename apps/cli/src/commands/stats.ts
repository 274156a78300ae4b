import type { Stats } from '../facade-types'
import { createStyle } from '../format/style'
import { renderTable, truncate } from '../format/table'
import { type CliContext, colorEnabled } from '../io'
import { withHyMem } from '../open-hymem'
import type { GlobalOptions } from '../program'
import { formatMs } from './dream'

/** Options of `hymem stats`. */
export interface StatsCommandOptions extends GlobalOptions {
  readonly json?: boolean
}

/** Prints store counts, the dream history and search-log figures of the workspace. */
export async function statsCommand(options: StatsCommandOptions, ctx: CliContext): Promise<Stats> {
  const stats = await withHyMem(options, ctx, (hymem) => hymem.stats(), { quiet: true })
  ctx.stdout.write(
    options.json ? `${JSON.stringify(stats, null, 2)}\n` : renderStats(stats, colorEnabled(ctx)),
  )
  return stats
}

/** The readable form of {@link statsCommand}. */
export function renderStats(stats: Stats, color: boolean): string {
  const style = createStyle(color)
  const out: string[] = [style.bold(`Workspace ${stats.workspaceId}`)]
  const counts = Object.entries(stats.counts).filter(([, n]) => n > 0)
  out.push(
    counts.length === 0
      ? '  (empty)\n'
      : renderTable(
          counts.map(([table, n]) => [table, String(n)]),
          { align: ['left', 'right'] },
        ),
  )
  const { edges, notes } = stats
  out.push(
    `  edges: ${edges.active} active, ${edges.stale} stale, ${edges.retracted} retracted, ${edges.derived} derived\n` +
      `  notes: ${notes.active} active, ${notes.archived} archived\n`,
  )
  const vectorIndexes = stats.vectors.indexes
    .map((i) => `${i.name} ${i.model} (${i.dimensions}-d)`)
    .join(', ')
  out.push(`  vectors: ${stats.vectors.mode}${vectorIndexes ? `; ${vectorIndexes}` : '; none stored'}\n`)

  out.push(style.bold('Dreams (most recent first)'))
  out.push(
    stats.dreams.length === 0
      ? '  none yet: run "hymem dream"\n'
      : renderTable(
          stats.dreams.map((d) => [
            d.startedAt.replace('T', ' ').slice(0, 19),
            d.status + (d.skipReason ? ` (${d.skipReason})` : ''),
            d.extractor ?? '-',
            String(d.chunksProcessed),
            String(d.edgesUpserted),
            String(d.errors),
            d.ms === null ? '-' : formatMs(d.ms),
          ]),
          {
            head: ['started (UTC)', 'status', 'extractor', 'chunks', 'edges', 'errors', 'time'],
            align: ['left', 'left', 'left', 'right', 'right', 'right', 'right'],
          },
        ),
  )

  const s = stats.search
  out.push(style.bold('Searches'))
  if (s.searches === 0) {
    out.push('  none logged yet\n')
  } else {
    const p = (ms: number | null) => (ms === null ? '-' : formatMs(ms))
    out.push(
      renderTable([
        [
          'searches',
          `${s.searches} (${Object.entries(s.bySurface)
            .map(([k, n]) => `${k} ${n}`)
            .join(', ')})`,
        ],
        ['empty results', `${(s.emptyRate * 100).toFixed(1)}%`],
        ['average hits', s.avgHits.toFixed(1)],
        ['average top score', s.avgTopScore === null ? '-' : s.avgTopScore.toFixed(3)],
        ['latency', `p50 ${p(s.latencyMs.p50)}, p95 ${p(s.latencyMs.p95)}`],
      ]),
    )
    if (s.recentMisses.length > 0) {
      out.push('  recent misses:\n')
      for (const miss of s.recentMisses)
        out.push(
          `    ${miss.at.replace('T', ' ').slice(0, 19)}  ${miss.surface}  "${truncate(miss.query, 70)}"\n`,
        )
    }
  }
  if (stats.deletions.length > 0) {
    out.push(style.bold('Deletions (most recent first)'))
    out.push(
      renderTable(
        stats.deletions.map((d) => [
          d.requestedAt.replace('T', ' ').slice(0, 19),
          d.target === '' ? d.kind : `${d.kind} ${truncate(d.target, 30)}`,
          d.status,
          Object.entries(d.removed)
            .filter(([kind]) => ['messages', 'chunks', 'facts', 'notes', 'episodes'].includes(kind))
            .map(([kind, n]) => `${n} ${kind}`)
            .join(', ') || '-',
        ]),
        { head: ['requested (UTC)', 'forgot', 'status', 'removed'], align: ['left', 'left', 'left', 'left'] },
      ),
    )
  }
  return out.map((block) => (block.endsWith('\n') ? block : `${block}\n`)).join('')
}
