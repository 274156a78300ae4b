import type { Message } from '@hymem/core-store'
import type { RunContext } from '../run/context'
import { loadMentionMatcher, type MentionMatcher } from './mentions'
import { salienceReason } from './salience'

interface PendingChunk {
  readonly messages: Message[]
  readonly reasons: Set<string>
  length: number
}

const PAGE = 500

/** How a message reads inside a chunk: the speaker's role, then the content. */
export function chunkLine(message: Pick<Message, 'role' | 'content'>): string {
  return `${message.role}: ${message.content.trim()}`
}

/**
 * Cuts the new messages of every session (after `sessions.last_chunked_message_id`) into salient chunks.
 * Consecutive salient messages merge up to `chunkMaxChars`; chunks under `salienceMinChars` are dropped.
 * The chunks, their mentions of already known entities and the advanced watermark are written in one
 * transaction per session page, so a crash never loses or duplicates a chunk.
 */
export async function chunkNewMessages(ctx: RunContext): Promise<void> {
  const { store, workspaceId } = ctx
  const sessions = await store.sessions.listChunkWatermarks(workspaceId)
  let matcher: MentionMatcher | null = null
  for (const session of sessions) {
    let after = session.lastChunkedMessageId
    for (;;) {
      const page = await store.messages.listAfter(workspaceId, session.sessionId, after, PAGE)
      if (page.length === 0) break
      const chunks = cut(page, ctx)
      const last = page[page.length - 1]!.id
      matcher ??= await loadMentionMatcher(store, workspaceId)
      await writeChunks(ctx, session.sessionId, chunks, after, last, matcher)
      after = last
      if (page.length < PAGE) break
    }
  }
}

function cut(messages: readonly Message[], ctx: RunContext): PendingChunk[] {
  const { salienceMinChars, salienceLengthFallback, chunkMaxChars } = ctx.config
  const chunks: PendingChunk[] = []
  let open: PendingChunk | null = null
  for (const message of messages) {
    const reason =
      message.content.trim() === '' ? null : salienceReason(message.content, salienceLengthFallback)
    if (reason === null) {
      open = null
      continue
    }
    const size = chunkLine(message).length
    if (open === null || open.length + 1 + size > chunkMaxChars) {
      open = { messages: [], reasons: new Set(), length: -1 }
      chunks.push(open)
    }
    open.messages.push(message)
    open.reasons.add(reason)
    open.length += 1 + size
  }
  return chunks.filter((c) => render(c, chunkMaxChars).length >= salienceMinChars)
}

/** Merged chunks stay under the cap; a single overlong message is cut at it. */
function render(chunk: PendingChunk, maxChars: number): string {
  return chunk.messages.map(chunkLine).join('\n').slice(0, maxChars)
}

async function writeChunks(
  ctx: RunContext,
  sessionId: string,
  chunks: readonly PendingChunk[],
  expectedWatermark: number,
  watermark: number,
  matcher: MentionMatcher,
): Promise<void> {
  const { workspaceId } = ctx
  const created = await ctx.store.transaction(async (tx) => {
    // Another connection may have chunked the same span meanwhile: the watermark check makes this a no-op.
    if (!(await tx.sessions.advanceChunkWatermark(workspaceId, sessionId, expectedWatermark, watermark)))
      return 0
    let inserted = 0
    for (const chunk of chunks) {
      const last = chunk.messages[chunk.messages.length - 1]!
      const text = render(chunk, ctx.config.chunkMaxChars)
      const row = await tx.chunks.insertIfNew(workspaceId, {
        sessionId,
        text,
        salienceReason: [...chunk.reasons].join(','),
        messageIds: chunk.messages.map((m) => m.id),
        occurredAt: last.createdAt,
      })
      if (!row) continue
      inserted++
      await tx.mentions.add(workspaceId, row.id, matcher.match(text))
    }
    return inserted
  })
  ctx.tally.chunksCreated += created
}
