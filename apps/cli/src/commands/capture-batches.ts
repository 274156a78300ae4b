import type { SessionBatch } from 'hymem'
import type { RawEntry } from './capture-entries'
import { type CaptureLine, checkCaptureEntry } from './capture-parse'

/** Lines written per batch: the most a capture holds in memory at once. */
export const CAPTURE_BATCH_LINES = 1000

const MAX_LISTED = 20

/** Problems found in a capture file: the first 20 in file order, and how many there were in all. */
export class CaptureProblems {
  readonly listed: string[] = []
  total = 0

  add(problem: string): void {
    this.total += 1
    if (this.listed.length < MAX_LISTED) this.listed.push(problem)
  }
}

/** Thrown at the end of a capture file with problems, so the transaction around the writes rolls back. */
export class CaptureRejected extends Error {
  override readonly name = 'CaptureRejected'

  constructor(readonly problems: CaptureProblems) {
    super(`${problems.total} bad entries`)
  }
}

/**
 * Validates the entries as they stream in and yields them in batches of at most `batchLines` lines, grouped
 * by session in file order. After the first problem nothing more is yielded but every later entry is still
 * checked, so the report names all bad lines; then it throws {@link CaptureRejected}. An abort of `signal`
 * stops it at the next entry.
 */
export async function* captureBatches(
  entries: AsyncIterable<RawEntry>,
  problems: CaptureProblems,
  options: { readonly batchLines?: number; readonly signal?: AbortSignal } = {},
): AsyncGenerator<SessionBatch[]> {
  const batchLines = options.batchLines ?? CAPTURE_BATCH_LINES
  let batch: CaptureLine[] = []
  let valid = 0
  for await (const entry of entries) {
    options.signal?.throwIfAborted()
    const checked = checkCaptureEntry(entry)
    if (typeof checked === 'string') {
      problems.add(checked)
      batch = []
      continue
    }
    valid += 1
    if (problems.total > 0) continue
    batch.push(checked)
    if (batch.length >= batchLines) {
      yield bySession(batch)
      batch = []
    }
  }
  if (problems.total === 0 && valid === 0) problems.add('no messages found (expected JSONL or a JSON array)')
  if (problems.total > 0) throw new CaptureRejected(problems)
  if (batch.length > 0) yield bySession(batch)
}

function bySession(lines: readonly CaptureLine[]): SessionBatch[] {
  const groups = new Map<string, SessionBatch['messages'][number][]>()
  for (const line of lines) {
    const message = {
      peerId: line.peerId ?? line.role ?? 'user',
      ...(line.role ? { role: line.role } : {}),
      content: line.content,
      ...(line.createdAt ? { createdAt: line.createdAt } : {}),
      ...(line.metadata ? { metadata: line.metadata } : {}),
    }
    const group = groups.get(line.sessionId)
    if (group) group.push(message)
    else groups.set(line.sessionId, [message])
  }
  return [...groups].map(([sessionId, messages]) => ({ sessionId, messages }))
}
