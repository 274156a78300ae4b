import type { ExtractFactsResult } from '@hymem/extraction'
import pLimit from 'p-limit'
import { _isAbort } from '../errors'
import { callOptions, checkAbort, checkpoint, count, errorText, type RunContext, spend } from '../run/context'
import { loadNegativeExamples, tripleKey } from './feedback'
import { loadMentionMatcher } from './mentions'
import { chunkTurns, loadChunkMessages, loadKnownPeers } from './speakers'
import { writeChunkFacts } from './write-facts'

const MAX_CHUNK_ERRORS_LISTED = 5

/** Chunks of the workspace not yet processed under the extractor's prompt version. */
export function countPending(ctx: RunContext): Promise<number> {
  return ctx.store.chunks.countUnprocessed(ctx.workspaceId, ctx.extractor.promptVersion)
}

/**
 * Phase 1: extracts up to `budget` unprocessed chunks. Extraction calls run concurrently (bounded by
 * `concurrency`); each chunk's writes commit in chunk order, one transaction at a time. A chunk whose
 * extraction fails is left unprocessed for the next cycle.
 */
export async function extractPending(ctx: RunContext): Promise<void> {
  if (ctx.budget <= 0) return
  const chunks = await ctx.store.chunks.listUnprocessed(
    ctx.workspaceId,
    ctx.extractor.promptVersion,
    ctx.budget,
  )
  if (chunks.length === 0) return
  const negatives = await loadNegativeExamples(ctx.store, ctx.workspaceId, ctx.config.negativeExamples)
  const blocked = new Set(negatives.map(tripleKey))
  const matcher = await loadMentionMatcher(ctx.store, ctx.workspaceId)
  // Who speaks: each chunk's messages with their authors, and the peers the text may name.
  const [messages, peers] = await Promise.all([
    loadChunkMessages(ctx.store, ctx.workspaceId, chunks),
    loadKnownPeers(ctx.store, ctx.workspaceId),
  ])
  const limit = pLimit(ctx.concurrency)
  const calls = chunks.map((chunk) =>
    limit(async (): Promise<ExtractFactsResult> => {
      // Start on a fresh macrotask: a synchronous extractor must not run inside another chunk's transaction.
      await checkpoint(ctx)
      const turns = chunkTurns(chunk, messages, ctx.config.chunkMaxChars)
      return ctx.extractor.extractFacts(
        { text: chunk.text, ...(turns ? { turns } : {}), peers, negativeExamples: negatives },
        callOptions(ctx),
      )
    }),
  )
  // Every call is awaited below; this only keeps a rejection that arrives early from being "unhandled".
  for (const call of calls) call.catch(() => undefined)
  let failures = 0
  try {
    for (const [i, chunk] of chunks.entries()) {
      let facts: ExtractFactsResult
      try {
        facts = await calls[i]!
      } catch (error) {
        if (_isAbort(error, ctx.signal)) throw error
        failures++
        if (failures <= MAX_CHUNK_ERRORS_LISTED)
          ctx.tally.errors.push(`extract chunk ${chunk.id}: ${errorText(error)}`)
        continue
      }
      spend(ctx, facts)
      checkAbort(ctx)
      await writeChunkFacts(ctx, chunk, facts, blocked, matcher)
      ctx.emit({ kind: 'chunk', index: i + 1, total: chunks.length, chunkId: chunk.id })
      await checkpoint(ctx)
    }
  } finally {
    limit.clearQueue()
    count(ctx, 'chunkErrors', failures)
    if (failures > MAX_CHUNK_ERRORS_LISTED) {
      ctx.tally.errors.push(`extract: ${failures - MAX_CHUNK_ERRORS_LISTED} more chunk failures`)
    }
  }
}
