import type { StoreScope } from '@hymem/core-store'
import type { ExtractedEpisode, ExtractedProcedure } from '@hymem/extraction'
import { callOptions, checkAbort, count, errorText, type RunContext, spend } from '../run/context'
import { chunkLine } from './chunk'
import { stableId } from './ids'

interface SessionChunk {
  id: number
  text: string
  message_ids: string
  occurred_at: string
  last_message_id: number
}

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
 * summary, then writes them with the advanced watermark in one transaction. A failing session keeps its
 * watermark and is retried next cycle.
 */
export async function processSessions(ctx: RunContext): Promise<void> {
  const sessions = await dirtySessions(ctx)
  for (const [i, session] of sessions.entries()) {
    checkAbort(ctx)
    try {
      await processSession(ctx, session.id, session.upTo)
    } catch (error) {
      if (ctx.signal?.aborted) throw error
      ctx.tally.errors.push(`session ${session.id}: ${errorText(error)}`)
      continue
    }
    ctx.emit({ kind: 'session', index: i + 1, total: sessions.length, sessionId: session.id })
  }
}

async function processSession(ctx: RunContext, sessionId: string, upTo: number): Promise<void> {
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
  const opts = callOptions(ctx)
  const episodes = await extractor.extractEpisodes(
    { sessionId, chunks: chunks.map((c) => ({ id: c.id, text: c.text })) },
    opts,
  )
  spend(ctx, episodes)
  checkAbort(ctx)
  const procedureText = clip(chunks.map((c) => c.text).join('\n\n'), config.transcriptMaxChars)
  const procedures = await extractor.extractProcedures({ text: procedureText }, opts)
  spend(ctx, procedures)
  checkAbort(ctx)
  const transcript = await sessionTranscript(ctx, sessionId, upTo)
  const summary = await extractor.summarizeSession({ transcript }, opts)
  spend(ctx, summary)
  checkAbort(ctx)
  const now = store.context.now()
  await store.transaction(async (tx) => {
    const kept = await writeEpisodes(tx, workspaceId, sessionId, chunks, episodes.episodes, now)
    count(ctx, 'episodes', kept)
    count(
      ctx,
      'procedures',
      await writeProcedures(tx, workspaceId, sessionId, chunks, procedures.procedures, now),
    )
    const text = summary.summary === null ? null : validSummary(summary.summary)
    if (text === null) count(ctx, 'summariesRejected')
    else count(ctx, 'summaries')
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

const messageIdsOf = (chunks: readonly SessionChunk[]) => [
  ...new Set(chunks.flatMap((c) => JSON.parse(c.message_ids) as number[])),
]

async function writeEpisodes(
  tx: StoreScope,
  workspaceId: string,
  sessionId: string,
  chunks: readonly SessionChunk[],
  episodes: readonly ExtractedEpisode[],
  now: string,
): Promise<number> {
  const byId = new Map(chunks.map((c) => [c.id, c]))
  const covered = new Set(chunks.map((c) => c.id))
  const ids: string[] = []
  for (const episode of episodes) {
    const own = episode.chunkIds.map((id) => byId.get(id)).filter((c): c is SessionChunk => c !== undefined)
    if (own.length === 0) continue
    const id = stableId('ep', workspaceId, sessionId, ...own.map((c) => c.id))
    ids.push(id)
    const row = {
      title: episode.title,
      summary: episode.summary,
      outcome: episode.outcome ?? null,
      entities: JSON.stringify(episode.entities),
      chunk_ids: JSON.stringify(own.map((c) => c.id)),
      message_ids: JSON.stringify(messageIdsOf(own)),
      started_at: own[0]!.occurred_at,
      ended_at: own[own.length - 1]!.occurred_at,
      updated_at: now,
    }
    await tx.db
      .insertInto('episodes')
      .values({ id, workspace_id: workspaceId, session_id: sessionId, created_at: now, ...row })
      .onConflict((oc) => oc.column('id').doUpdateSet(row))
      .execute()
  }
  // Episodes over the re-read chunks that this extraction no longer produces are replaced.
  const old = await tx.db
    .selectFrom('episodes')
    .select(['id', 'chunk_ids'])
    .where('workspace_id', '=', workspaceId)
    .where('session_id', '=', sessionId)
    .execute()
  const stale = old
    .filter((e) => !ids.includes(e.id) && (JSON.parse(e.chunk_ids) as number[]).some((c) => covered.has(c)))
    .map((e) => e.id)
  if (stale.length > 0 && ids.length > 0)
    await tx.db.deleteFrom('episodes').where('id', 'in', stale).execute()
  return ids.length
}

async function writeProcedures(
  tx: StoreScope,
  workspaceId: string,
  sessionId: string,
  chunks: readonly SessionChunk[],
  procedures: readonly ExtractedProcedure[],
  now: string,
): Promise<number> {
  let written = 0
  for (const procedure of procedures) {
    const steps = [...procedure.steps]
      .sort((a, b) => a.order - b.order)
      .map((s, i) => ({ ...s, order: i + 1 }))
    if (steps.length === 0) continue
    const sources = chunksMentioning(chunks, [procedure.name, ...steps.map((s) => s.text)])
    const row = {
      name: procedure.name,
      description: procedure.description,
      trigger_phrase: procedure.trigger ?? null,
      steps: JSON.stringify(steps),
      steps_text: steps.map((s) => `${s.order}. ${s.text}`).join('\n'),
      entities: JSON.stringify(procedure.entities),
      chunk_ids: JSON.stringify(sources.map((c) => c.id)),
      message_ids: JSON.stringify(messageIdsOf(sources)),
      updated_at: now,
    }
    const id = stableId('proc', workspaceId, sessionId, procedure.name.trim().toLowerCase())
    await tx.db
      .insertInto('procedures')
      .values({ id, workspace_id: workspaceId, session_id: sessionId, created_at: now, ...row })
      .onConflict((oc) => oc.column('id').doUpdateSet(row))
      .execute()
    written++
  }
  return written
}

/** The chunks whose text shares a distinctive word with the procedure; all of them when none does. */
function chunksMentioning(chunks: readonly SessionChunk[], texts: readonly string[]): SessionChunk[] {
  const words = new Set(
    texts.flatMap((t) => t.toLowerCase().split(/[^\p{L}\p{N}]+/u)).filter((w) => w.length >= 5),
  )
  const hits = chunks.filter((c) =>
    c.text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .some((w) => words.has(w)),
  )
  return hits.length > 0 ? hits : [...chunks]
}
