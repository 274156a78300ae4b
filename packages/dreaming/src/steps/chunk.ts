import type { Message } from '@hymem/core-store'
import { checkpoint, type RunContext } from '../run/context'
import { loadMentionMatcher, type MentionMatcher } from './mentions'
import { salienceReason } from './salience'

interface PendingChunk {
  readonly messages: Message[]
  readonly reasons: Set<string>
  length: number
}

const PAGE = 500
/** Chunks written per transaction: a page's chunks commit in groups, so no transaction runs long. */
const CHUNKS_PER_TRANSACTION = 25

/** How a message reads inside a chunk: the speaker's role, then the content. */
export function chunkLine(message: Pick<Message, 'role' | 'content'>): string {
  return `${message.role}: ${message.content.trim()}`
}

/**
 * Cuts the new messages of every session (after `sessions.last_chunked_message_id`) into salient chunks.
 * Consecutive salient messages merge up to `chunkMaxChars`; chunks under `salienceMinChars` are dropped.
 * A page's chunks are written in groups: each group, its mentions of already known entities and the
 * watermark advanced to the group's last message commit in one short transaction (the page's last group
 * advances it to the page's end), so a crash never loses or duplicates a chunk, and a run resumed after one
 * starts cutting at a chunk boundary.
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
      let watermark = after
      for (let at = 0; at < chunks.length || watermark !== last; at += CHUNKS_PER_TRANSACTION) {
        const group = chunks.slice(at, at + CHUNKS_PER_TRANSACTION)
        const end = at + CHUNKS_PER_TRANSACTION >= chunks.length ? last : lastMessageId(group)
        if (!(await writeChunks(ctx, session.sessionId, group, watermark, end, matcher))) break
        watermark = end
        await checkpoint(ctx)
      }
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

function lastMessageId(chunks: readonly PendingChunk[]): number {
  const messages = chunks[chunks.length - 1]!.messages
  return messages[messages.length - 1]!.id
}

/** Writes the chunks and moves the watermark; false when another connection moved it first (nothing written). */
async function writeChunks(
  ctx: RunContext,
  sessionId: string,
  chunks: readonly PendingChunk[],
  expectedWatermark: number,
  watermark: number,
  matcher: MentionMatcher,
): Promise<boolean> {
  const { workspaceId } = ctx
  const created = await ctx.store.transaction(async (tx) => {
    // Another connection may have chunked the same span meanwhile: the watermark check makes this a no-op.
    if (!(await tx.sessions.advanceChunkWatermark(workspaceId, sessionId, expectedWatermark, watermark)))
      return null
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
  if (created === null) return false
  ctx.tally.chunksCreated += created
  return true
}
