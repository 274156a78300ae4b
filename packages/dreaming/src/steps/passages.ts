import type { PassageRange } from '@hymem/core-store'
import { checkAbort, checkpoint, count, type RunContext } from '../run/context'

/** Messages split per page read (each page is written in one transaction). */
const PAGE = 200

/**
 * Where `text` splits into passages of at most `maxChars` characters: paragraphs packed together while they
 * fit, a longer paragraph at its sentence ends, a longer sentence at a space (a longer word at the limit). Ranges are in order, never overlap, and leave out the whitespace between passages.
 */
export function splitPassages(text: string, maxChars: number): PassageRange[] {
  const pieces = segments(text, maxChars)
  const out: PassageRange[] = []
  let current: PassageRange | null = null
  for (const piece of pieces) {
    if (current && piece.end - current.start <= maxChars) current = { start: current.start, end: piece.end }
    else {
      if (current) out.push(current)
      current = piece
    }
  }
  if (current) out.push(current)
  return out
}

/** Paragraphs, sentences of long paragraphs and space-cut pieces of long sentences, trimmed, in order. */
function segments(text: string, maxChars: number): PassageRange[] {
  const out: PassageRange[] = []
  for (const paragraph of stretches(text, 0, text.length, /\n\s*\n/g)) {
    if (paragraph.end - paragraph.start <= maxChars) {
      out.push(paragraph)
      continue
    }
    for (const sentence of stretches(text, paragraph.start, paragraph.end, /(?<=[.!?:;])\s+|\n/g)) {
      if (sentence.end - sentence.start <= maxChars) out.push(sentence)
      else out.push(...cutAtSpaces(text, sentence, maxChars))
    }
  }
  return out
}

/** The trimmed stretches of `text[start, end)` between matches of `separator`. */
function stretches(text: string, start: number, end: number, separator: RegExp): PassageRange[] {
  const out: PassageRange[] = []
  const part = text.slice(start, end)
  let from = 0
  const push = (to: number) => {
    const range = trimmed(text, start + from, start + to)
    if (range) out.push(range)
  }
  for (const match of part.matchAll(separator)) {
    push(match.index)
    from = match.index + match[0].length
  }
  push(part.length)
  return out
}

/** `range` cut into pieces of at most `maxChars`, each ending before a space where there is one. */
function cutAtSpaces(text: string, range: PassageRange, maxChars: number): PassageRange[] {
  const out: PassageRange[] = []
  let start = range.start
  while (range.end - start > maxChars) {
    const space = text.lastIndexOf(' ', start + maxChars)
    const cut = space > start ? space : start + maxChars
    const piece = trimmed(text, start, cut)
    if (piece) out.push(piece)
    start = cut
  }
  const last = trimmed(text, start, range.end)
  if (last) out.push(last)
  return out
}

function trimmed(text: string, start: number, end: number): PassageRange | null {
  let from = start
  let to = end
  while (from < to && /\s/.test(text[from] as string)) from++
  while (to > from && /\s/.test(text[to - 1] as string)) to--
  return to > from ? { start: from, end: to } : null
}

/**
 * Splits the workspace's long messages (at least `passageMinChars` characters) into passages of at most
 * `passageMaxChars`, so each is searched (and embedded) on its own; counted as `passagesSplit`.
 */
export async function splitLongMessages(ctx: RunContext): Promise<void> {
  const { store, workspaceId, config } = ctx
  if (config.passageMinChars <= 0) return
  let afterId = 0
  let split = 0
  for (;;) {
    checkAbort(ctx)
    const batch = await store.passages.listUnsplit(workspaceId, config.passageMinChars, {
      afterId,
      limit: PAGE,
    })
    if (batch.length === 0) break
    await store.passages.write(
      workspaceId,
      batch.map((message) => ({
        messageId: message.id,
        ranges: splitPassages(message.content, config.passageMaxChars),
      })),
    )
    split += batch.length
    afterId = batch[batch.length - 1]?.id ?? afterId
    await checkpoint(ctx)
  }
  count(ctx, 'passagesSplit', split)
}
