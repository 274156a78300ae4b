import { createFakeEmbeddings } from '@hymem/extraction'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { logLines, openTestStore, stepContext, type TestStore, WS } from '../../test/harness'
import { embedPassages } from './embed-passages'
import { splitLongMessages, splitPassages } from './passages'

const slices = (text: string, maxChars: number) =>
  splitPassages(text, maxChars).map((range) => text.slice(range.start, range.end))

describe('splitPassages', () => {
  it('packs paragraphs while they fit and leaves out the whitespace between passages', () => {
    const text = 'First paragraph here.\n\nSecond one.\n\n\nThird paragraph, a longer one than the others.'
    expect(slices(text, 50)).toEqual([
      'First paragraph here.\n\nSecond one.',
      'Third paragraph, a longer one than the others.',
    ])
    expect(slices(text, 1000)).toEqual([text])
  })

  it('cuts a long paragraph at its sentence ends, and a long sentence at spaces', () => {
    const text = `${'One sentence that ends. '.repeat(3).trim()}\n\n${'word '.repeat(30).trim()}`
    const passages = slices(text, 50)
    expect(passages[0]).toBe('One sentence that ends. One sentence that ends.')
    expect(passages[1]).toBe('One sentence that ends.')
    expect(passages.slice(2).every((passage) => passage.length <= 50 && /^word( word)*$/.test(passage))).toBe(
      true,
    )
    expect(passages.slice(2).join(' ')).toBe('word '.repeat(30).trim())
  })

  it('keeps ranges in order without overlap, cutting a word longer than the limit at the limit', () => {
    const text = `  ${'x'.repeat(30)} tail  `
    const ranges = splitPassages(text, 10)
    expect(ranges.map((range) => text.slice(range.start, range.end))).toEqual([
      'x'.repeat(10),
      'x'.repeat(10),
      'x'.repeat(10),
      'tail',
    ])
    for (let i = 1; i < ranges.length; i++)
      expect(ranges[i]!.start).toBeGreaterThanOrEqual(ranges[i - 1]!.end)
    expect(splitPassages('   ', 10)).toEqual([])
  })
})

describe('passages of long messages', () => {
  let t: TestStore
  beforeEach(() => {
    t = openTestStore()
  })
  afterEach(async () => {
    await t.cleanup()
  })

  it('splits only long messages, once, and embeds each passage as its author and text', async () => {
    const long = `${'The deploy checklist has many steps. '.repeat(20)}\n\nRollback uses pgbouncer.`
    const [short, longMessage] = await logLines(t.store, 's1', [
      { peer: 'alice', role: 'user', content: 'How do I roll back?', at: '2026-02-20T09:00:00.000Z' },
      { peer: 'hermes', role: 'assistant', content: long, at: '2026-02-20T09:01:00.000Z' },
    ])
    const ctx = stepContext(t, { config: { passageMinChars: 500, passageMaxChars: 300 } })
    await splitLongMessages(ctx)
    await splitLongMessages(ctx)
    expect(ctx.tally.counts.passagesSplit).toBe(1)
    const passages = await t.store.passages.listForMessages(WS, [short!.id, longMessage!.id])
    expect(passages.length).toBeGreaterThan(2)
    expect(passages.every((p) => p.messageId === longMessage!.id && p.text.length <= 300)).toBe(true)
    expect(passages.at(-1)?.text).toMatch(/steps\.\s+Rollback uses pgbouncer\.$/)

    const embeddings = createFakeEmbeddings({ dimensions: 8 })
    expect(await embedPassages({ ...ctx, embeddings }, embeddings)).toBe(passages.length)
    expect(await t.store.passages.listUnembedded(WS)).toEqual([])
    expect(await embedPassages({ ...ctx, embeddings }, embeddings)).toBe(0)
    const [vector] = await embeddings.embed([`hermes: ${passages.at(-1)!.text}`])
    const near = await t.store.vectors.nearest('passages', vector!, {
      workspaceId: WS,
      k: 1,
      model: embeddings.model,
    })
    expect(near.map((hit) => Number(hit.id))).toEqual([passages.at(-1)!.id])
  })

  it('splits nothing when passageMinChars is 0', async () => {
    await logLines(t.store, 's1', [
      { peer: 'hermes', role: 'assistant', content: 'long '.repeat(400), at: '2026-02-20T09:01:00.000Z' },
    ])
    const ctx = stepContext(t, { config: { passageMinChars: 0 } })
    await splitLongMessages(ctx)
    expect(await t.store.passages.listUnembedded(WS)).toEqual([])
  })
})
