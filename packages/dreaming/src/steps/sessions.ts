import type { Chunk } from '@hymem/core-store'
import type {
  ExtractEpisodesResult,
  ExtractProceduresResult,
  SummarizeSessionResult,
} from '@hymem/extraction'
import pLimit, { type LimitFunction } from 'p-limit'
import { callOptions, checkAbort, checkpoint, count, errorText, type RunContext, spend } from '../run/context'
import { chunkLine } from './chunk'
import { writeEpisodes, writeProcedures } from './session-writes'

/** Most recent messages read for a session's summary transcript. */
const TRANSCRIPT_MAX_MESSAGES = 400

/**
 * Between phases: for each session with newly processed chunks, extracts episodes (ids stable across
 * re-dreams: a hash of the session and its chunk ids), procedures (ordered steps) and a one-sentence
 * summary. The calls of all sessions share the cycle's concurrency bound; each session's results are
 * written with its advanced watermark in one transaction, in session order. A failing session keeps its
 * watermark and is retried next cycle.
 */
export async function processSessions(ctx: RunContext): Promise<void> {
  // `sessions.summary_message_id` is the watermark of this step.
  const sessions = await ctx.store.sessions.listSummaryBacklog(ctx.workspaceId, ctx.extractor.promptVersion)
  if (sessions.length === 0) return
  const limit = pLimit(ctx.concurrency)
  const prepared = sessions.map((s) => prepareSession(ctx, s.sessionId, s.lastMessageId, limit))
  // Every result is awaited below; this only keeps an early rejection from being "unhandled".
  for (const p of prepared) p.catch(() => undefined)
  try {
    for (const [i, session] of sessions.entries()) {
      let result: Prepared
      try {
        result = await prepared[i]!
      } catch (error) {
        if (ctx.signal?.aborted) throw error
        ctx.tally.errors.push(`session ${session.sessionId}: ${errorText(error)}`)
        continue
      }
      checkAbort(ctx)
      await commitSession(ctx, session.sessionId, session.lastMessageId, result)
      ctx.emit({ kind: 'session', index: i + 1, total: sessions.length, sessionId: session.sessionId })
      await checkpoint(ctx)
    }
  } finally {
    limit.clearQueue()
  }
}

interface Prepared {
  chunks: Chunk[]
  episodes: ExtractEpisodesResult
  procedures: ExtractProceduresResult
  summary: SummarizeSessionResult
}

async function prepareSession(
  ctx: RunContext,
  sessionId: string,
  upTo: number,
  limit: LimitFunction,
): Promise<Prepared> {
  const { store, workspaceId, extractor, config } = ctx
  const chunks = await store.chunks.listProcessedTail(
    workspaceId,
    sessionId,
    extractor.promptVersion,
    config.episodeMaxChunks,
  )
  const transcript = await sessionTranscript(ctx, sessionId, upTo)
  const opts = callOptions(ctx)
  const guarded = <T>(call: () => Promise<T>) =>
    limit(() => {
      checkAbort(ctx)
      return call()
    })
  const [episodes, procedures, summary] = await Promise.all([
    guarded(() =>
      extractor.extractEpisodes({ sessionId, chunks: chunks.map((c) => ({ id: c.id, text: c.text })) }, opts),
    ),
    guarded(() =>
      extractor.extractProcedures(
        { text: clip(chunks.map((c) => c.text).join('\n\n'), config.transcriptMaxChars) },
        opts,
      ),
    ),
    guarded(() => extractor.summarizeSession({ transcript }, opts)),
  ])
  return { chunks, episodes, procedures, summary }
}

async function commitSession(
  ctx: RunContext,
  sessionId: string,
  upTo: number,
  result: Prepared,
): Promise<void> {
  const { store, workspaceId } = ctx
  for (const call of [result.episodes, result.procedures, result.summary]) spend(ctx, call)
  const text = result.summary.summary === null ? null : validSummary(result.summary.summary)
  await store.transaction(async (tx) => {
    count(
      ctx,
      'episodes',
      await writeEpisodes(tx, workspaceId, sessionId, result.chunks, result.episodes.episodes),
    )
    count(
      ctx,
      'procedures',
      await writeProcedures(tx, workspaceId, sessionId, result.chunks, result.procedures.procedures),
    )
    if (text === null) await tx.sessions.markSummarized(workspaceId, sessionId, upTo)
    else await tx.sessions.setSummary(workspaceId, sessionId, { text, messageId: upTo })
  })
  count(ctx, text === null ? 'summariesRejected' : 'summaries')
}

/** One sentence, prose, 20–400 characters (the extractor validates too; this guards other extractors). */
export function validSummary(raw: string): string | null {
  const text = raw.replace(/\s+/g, ' ').trim()
  if (text.length < 20 || text.length > 400 || /^["'“‘`{[]/.test(text)) return null
  return text
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(text.length - max)
}

async function sessionTranscript(ctx: RunContext, sessionId: string, upTo: number): Promise<string> {
  const newestFirst = await ctx.store.messages.recent(ctx.workspaceId, {
    sessionId,
    beforeId: upTo + 1,
    limit: TRANSCRIPT_MAX_MESSAGES,
  })
  return clip(newestFirst.reverse().map(chunkLine).join('\n'), ctx.config.transcriptMaxChars)
}
