import type { HyMemConfig } from 'hymem'
import { EXIT_FAILURE, ExitError } from '../exit-error'
import type { RuntimeStatus, Stats } from '../facade-types'
import { createStyle } from '../format/style'
import { renderTable, truncate } from '../format/table'
import { type CliContext, colorEnabled } from '../io'
import { withHyMem } from '../open-hymem'
import type { GlobalOptions } from '../program'
import { formatMs } from './dream'

/** Options of `hymem stats`. */
export interface StatsCommandOptions extends GlobalOptions {
  readonly json?: boolean
  /**
   * Also report a running hymem-honcho's event-loop delay and dream worker (`GET /health?verbose`): its
   * URL, or `true` for the configured HYMEM_HONCHO_HOST and HYMEM_HONCHO_PORT.
   */
  readonly server?: string | true
}

/** What a server's `GET /health?verbose` answers. */
export interface ServerRuntime extends RuntimeStatus {
  readonly url: string
}

const SERVER_TIMEOUT_MS = 5000

/** Prints store counts, the dream history and search-log figures of the workspace (and a server's runtime). */
export async function statsCommand(
  options: StatsCommandOptions,
  ctx: CliContext,
): Promise<Stats & { server?: ServerRuntime }> {
  const { stats, server } = await withHyMem(
    options,
    ctx,
    async (hymem, config) => {
      const server =
        options.server === undefined ? undefined : await serverRuntime(options.server, config, ctx)
      return { stats: await hymem.stats(), server }
    },
    { quiet: true },
  )
  const result = server ? { ...stats, server } : stats
  ctx.stdout.write(
    options.json ? `${JSON.stringify(result, null, 2)}\n` : renderStats(result, colorEnabled(ctx)),
  )
  return result
}

/** Asks a hymem-honcho for its runtime figures, with a token of the configuration when it has some. */
async function serverRuntime(
  server: string | true,
  config: HyMemConfig,
  ctx: CliContext,
): Promise<ServerRuntime> {
  const host = config.honcho.host.includes(':') ? `[${config.honcho.host}]` : config.honcho.host
  const url = (server === true ? `http://${host}:${config.honcho.port}` : server).replace(/\/+$/, '')
  const token = config.authTokens.find(
    (entry) => entry.workspaces === '*' || entry.workspaces.includes(config.workspaceId),
  )?.token
  const fetcher = ctx.fetch ?? globalThis.fetch
  let response: Response
  try {
    response = await fetcher(`${url}/health?verbose`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(SERVER_TIMEOUT_MS),
    })
  } catch (error) {
    throw new ExitError(EXIT_FAILURE, `cannot reach hymem-honcho at ${url}: ${(error as Error).message}`)
  }
  if (!response.ok) throw new ExitError(EXIT_FAILURE, `${url}/health?verbose answered ${response.status}`)
  const body = (await response.json()) as Partial<RuntimeStatus>
  if (!body.eventLoopDelay || !body.dreams)
    throw new ExitError(EXIT_FAILURE, `${url} is not a hymem-honcho (no runtime in /health?verbose)`)
  return { url, eventLoopDelay: body.eventLoopDelay, dreams: body.dreams }
}

/** The event-loop and dream-runner lines of a runtime report. */
export function renderRuntime(runtime: RuntimeStatus): string {
  const loop = runtime.eventLoopDelay
  const dreams = runtime.dreams
  const where = dreams.mode === 'worker' ? 'in a worker thread' : 'in process'
  const thread = dreams.threadId === null ? '' : ` (thread ${dreams.threadId})`
  const crash = dreams.lastCrash
    ? `, last ${dreams.lastCrash.at.replace('T', ' ').slice(0, 19)}: ${dreams.lastCrash.message}`
    : ''
  const lines = [
    `  event loop: delay p99 ${formatMs(loop.p99Ms)}, max ${formatMs(loop.maxMs)} (over ${formatMs(loop.windowMs)})`,
    `  dreams: ${where}, ${dreams.state}${thread}; ${dreams.crashes} crash${dreams.crashes === 1 ? '' : 'es'}${crash}`,
    ...dreams.running.map(
      (run) =>
        `    ${run.workspaceId}: ${run.phase ?? 'starting'}${run.chunks ? `, chunk ${run.chunks.done}/${run.chunks.total}` : ''}`,
    ),
  ]
  return `${lines.join('\n')}\n`
}

function boundedLog(log: Stats['retention']['searchLog']): [string, string] {
  const bounds = [
    ...(log.maxAgeDays > 0 ? [`${log.maxAgeDays} days`] : []),
    ...(log.maxRows > 0 ? [`${log.maxRows} newest rows`] : []),
  ]
  return [String(log.rows), bounds.length === 0 ? 'everything' : bounds.join(', at most ')]
}

/** The readable form of {@link statsCommand}. */
export function renderStats(stats: Stats & { server?: ServerRuntime }, color: boolean): string {
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
  out.push(style.bold('Retention (trimmed by each dream)'))
  out.push(
    renderTable(
      [
        ['search log', ...boundedLog(stats.retention.searchLog)],
        ['LLM cache (all workspaces)', ...boundedLog(stats.retention.llmCache)],
      ],
      { head: ['log', 'rows', 'keeps'], align: ['left', 'right', 'left'] },
    ),
  )
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
  out.push(style.bold('Runtime (this process)'))
  out.push(renderRuntime(stats.runtime))
  if (stats.server) {
    out.push(style.bold(`Server ${stats.server.url}`))
    out.push(renderRuntime(stats.server))
  }
  return out.map((block) => (block.endsWith('\n') ? block : `${block}\n`)).join('')
}
