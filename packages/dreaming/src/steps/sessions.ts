import type {
  ExtractEpisodesResult,
  ExtractProceduresResult,
  SummarizeSessionResult,
} from '@hymem/extraction'
import pLimit, { type LimitFunction } from 'p-limit'
import { callOptions, checkAbort, checkpoint, count, errorText, type RunContext, spend } from '../run/context'
import { chunkLine } from './chunk'
import { type SessionChunk, writeEpisodes, writeProcedures } from './session-writes'

/**
 * Sessions whose processed chunks reach past the message their summary covers: they need episodes,
 * procedures and a summary. `sessions.summary_message_id` is the watermark of this step.
 */
async function dirtySessions(ctx: RunContext): Promise<{ id: string; upTo: number }[]> {
  const rows = await ctx.store.db
    .selectFrom('chunks')
    .innerJoin('sessions', (j) =>
      j
        .onRef('sessions.workspace_id', '=', 'chunks.workspace_id')
        .onRef('sessions.id', '=', 'chunks.session_id'),
    )
    .innerJoin('processed_chunks', 'processed_chunks.chunk_id', 'chunks.id')
    .select(['chunks.session_id as id', (eb) => eb.fn.max('chunks.last_message_id').as('upTo')])
    .where('chunks.workspace_id', '=', ctx.workspaceId)
    .where('processed_chunks.prompt_version', '=', ctx.extractor.promptVersion)
    .groupBy(['chunks.session_id', 'sessions.summary_message_id'])
    .having((eb) =>
      eb.or([
        eb('sessions.summary_message_id', 'is', null),
        eb(eb.fn.max('chunks.last_message_id'), '>', eb.ref('sessions.summary_message_id')),
      ]),
    )
    .orderBy('chunks.session_id')
    .execute()
  return rows.map((r) => ({ id: r.id, upTo: Number(r.upTo) }))
}

/**
 * Between phases: for each session with newly processed chunks, extracts episodes (ids stable across
 * re-dreams: a hash of the session and its chunk ids), procedures (ordered steps) and a one-sentence
 * summary. The calls of all sessions share the cycle's concurrency bound; each session's results are
 * written with its advanced watermark in one transaction, in session order. A failing session keeps its
 * watermark and is retried next cycle.
 */
export async function processSessions(ctx: RunContext): Promise<void> {
  const sessions = await dirtySessions(ctx)
  if (sessions.length === 0) return
  const limit = pLimit(ctx.concurrency)
  const prepared = sessions.map((s) => prepareSession(ctx, s.id, s.upTo, limit))
  // Every result is awaited below; this only keeps an early rejection from being "unhandled".
  for (const p of prepared) p.catch(() => undefined)
  try {
    for (const [i, session] of sessions.entries()) {
      let result: Prepared
      try {
        result = await prepared[i]!
      } catch (error) {
        if (ctx.signal?.aborted) throw error
        ctx.tally.errors.push(`session ${session.id}: ${errorText(error)}`)
        continue
      }
      checkAbort(ctx)
      await commitSession(ctx, session.id, session.upTo, result)
      ctx.emit({ kind: 'session', index: i + 1, total: sessions.length, sessionId: session.id })
      await checkpoint(ctx)
    }
  } finally {
    limit.clearQueue()
  }
}

interface Prepared {
  chunks: SessionChunk[]
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
  const chunks: SessionChunk[] = (
    await store.db
      .selectFrom('chunks')
      .innerJoin('processed_chunks', 'processed_chunks.chunk_id', 'chunks.id')
      .select(['chunks.id', 'text', 'message_ids', 'occurred_at', 'last_message_id'])
      .where('chunks.workspace_id', '=', workspaceId)
      .where('chunks.session_id', '=', sessionId)
      .where('processed_chunks.prompt_version', '=', extractor.promptVersion)
      .orderBy('chunks.id', 'desc')
      .limit(config.episodeMaxChunks)
      .execute()
  ).reverse()
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
  const now = store.context.now()
  const text = result.summary.summary === null ? null : validSummary(result.summary.summary)
  await store.transaction(async (tx) => {
    count(
      ctx,
      'episodes',
      await writeEpisodes(tx, workspaceId, sessionId, result.chunks, result.episodes.episodes, now),
    )
    count(
      ctx,
      'procedures',
      await writeProcedures(tx, workspaceId, sessionId, result.chunks, result.procedures.procedures, now),
    )
    await tx.db
      .updateTable('sessions')
      .set(
        text === null
          ? { summary_message_id: upTo }
          : { summary: text, summary_message_id: upTo, summary_updated_at: now },
      )
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', sessionId)
      .execute()
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
  const rows = await ctx.store.db
    .selectFrom('messages')
    .select(['role', 'content'])
    .where('workspace_id', '=', ctx.workspaceId)
    .where('session_id', '=', sessionId)
    .where('id', '<=', upTo)
    .orderBy('id', 'desc')
    .limit(400)
    .execute()
  return clip(rows.reverse().map(chunkLine).join('\n'), ctx.config.transcriptMaxChars)
}
