import { maskSecrets, type Store } from '@hymem/core-store'
import type { EmbeddingClient, Extractor, LLMUsage } from '@hymem/extraction'
import type { DreamConfig } from '../config'
import { _throwIfAborted } from '../errors'
import type { DreamMarkdownPaths, DreamProgressEvent } from '../types'

/** Mutable tallies of one cycle. */
export interface RunTally {
  chunksCreated: number
  chunksProcessed: number
  edgesUpserted: number
  llmCalls: number
  promptTokens: number
  completionTokens: number
  counts: Record<string, number>
  errors: string[]
}

/** Everything a step needs: the store, the workspace, the extractor and the cycle's tallies. */
export interface RunContext {
  readonly store: Store
  readonly workspaceId: string
  readonly extractor: Extractor
  readonly embeddings: EmbeddingClient | undefined
  readonly config: DreamConfig
  readonly budget: number
  readonly concurrency: number
  /** null: no files; the sections are rendered from rows when read (`renderManagedMarkdown`). */
  readonly markdown: DreamMarkdownPaths | null
  readonly signal: AbortSignal | undefined
  readonly emit: (event: DreamProgressEvent) => void
  readonly tally: RunTally
  /** See `DreamOptions.pace`. */
  readonly pace: (() => Promise<void>) | undefined
}

export function newTally(): RunTally {
  return {
    chunksCreated: 0,
    chunksProcessed: 0,
    edgesUpserted: 0,
    llmCalls: 0,
    promptTokens: 0,
    completionTokens: 0,
    counts: {},
    errors: [],
  }
}

/** Adds `n` to a named count. */
export function count(ctx: RunContext, name: string, n = 1): void {
  ctx.tally.counts[name] = (ctx.tally.counts[name] ?? 0) + n
}

/** Records the LLM cost an extractor call reported. */
export function spend(ctx: RunContext, result: { usage: LLMUsage; llmCalls: number }): void {
  ctx.tally.llmCalls += result.llmCalls
  ctx.tally.promptTokens += result.usage.promptTokens
  ctx.tally.completionTokens += result.usage.completionTokens
}

export function checkAbort(ctx: RunContext): void {
  _throwIfAborted(ctx.signal)
}

/**
 * A checkpoint between two committed units of work (a chunk, a session, a batch): waits for the run's
 * pace, lets the event loop run (requests served on this thread, an abort or a close arriving from a
 * worker's host), then checks the signal. Without it a phase runs as one unbroken chain of promise callbacks.
 */
export async function checkpoint(ctx: RunContext): Promise<void> {
  if (ctx.pace) {
    // An aborted cycle (a closing worker) stops here at once instead of waiting for its pace first.
    checkAbort(ctx)
    await ctx.pace()
  }
  await new Promise<void>((resolve) => setImmediate(resolve))
  checkAbort(ctx)
}

/** The extractor's per-call options (the signal, when there is one). */
export function callOptions(ctx: RunContext): { signal?: AbortSignal } {
  return ctx.signal ? { signal: ctx.signal } : {}
}

/** A failure as the report and the `dream_runs` row keep it: its message, URL secrets masked. */
export function errorText(error: unknown): string {
  return maskSecrets(error instanceof Error ? error.message : String(error))
}
