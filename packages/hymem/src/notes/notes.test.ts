import { cosineSimilarity } from '@hymem/core-store'
import { createFakeEmbeddings } from '@hymem/extraction'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestMemory, type TestMemory } from '../../test/harness'
import { HyMemError } from '../errors'
import { noteText } from './note-text'

let t: TestMemory
afterEach(async () => {
  await t?.close()
})

const fake = createFakeEmbeddings({ dimensions: 64 })
async function similarity(a: string, b: string): Promise<number> {
  const [x, y] = await fake.embed([a, b])
  return cosineSimilarity(x!, y!)
}

describe('remember: two-gated de-duplication with embeddings', () => {
  it('updates the existing note when both the combined text and the content agree', async () => {
    t = await openTestMemory({ embeddings: createFakeEmbeddings({ dimensions: 64 }) })
    const first = await t.memory.notes.remember({
      description: 'Deploy target',
      content: 'Production deploys go to fly.io.',
      importance: 2,
      sourceIds: ['m1'],
      metadata: { a: 1 },
    })
    t.clock.advanceDays(1)
    const second = await t.memory.notes.remember({
      description: 'Deploy target',
      content: 'Production deploys go to fly.io.',
      importance: 1,
      sourceIds: ['m2'],
      metadata: { b: 2 },
    })
    expect(first.deduplicated).toBe(false)
    expect(second.deduplicated).toBe(true)
    expect(second.note).toMatchObject({
      id: first.note.id,
      importance: 2,
      timesDerived: 2,
      sourceIds: ['m1', 'm2'],
      metadata: { a: 1, b: 2 },
      createdAt: '2026-03-01T09:00:00.000Z',
      updatedAt: '2026-03-02T09:00:00.000Z',
    })
    expect((await t.memory.stats()).notes).toEqual({ active: 1, archived: 0 })
  })

  it('inserts side by side when the combined gate passes but the contents differ (second gate)', async () => {
    t = await openTestMemory({
      embeddings: createFakeEmbeddings({ dimensions: 64 }),
      notes: { dedupeThreshold: 0.3 },
    })
    const description = 'Where the team deploys the billing service and the API gateway in production'
    const a = { description, content: 'fly.io' }
    const b = { description, content: 'AWS eu-west-1' }
    expect(
      await similarity(noteText(a.description, a.content), noteText(b.description, b.content)),
    ).toBeGreaterThan(0.3)
    expect(await similarity(a.content, b.content)).toBeLessThan(0.9)
    await t.memory.notes.remember(a)
    const second = await t.memory.notes.remember(b)
    expect(second.deduplicated).toBe(false)
    expect((await t.memory.stats()).notes.active).toBe(2)
  })

  it('inserts when the contents match but the combined text does not clear the first gate', async () => {
    t = await openTestMemory({ embeddings: createFakeEmbeddings({ dimensions: 64 }) })
    const a = { description: 'Deploy target', content: 'fly.io' }
    const b = { description: 'Favourite hosting provider for hobby projects on weekends', content: 'fly.io' }
    expect(
      await similarity(noteText(a.description, a.content), noteText(b.description, b.content)),
    ).toBeLessThan(0.9)
    await t.memory.notes.remember(a)
    expect((await t.memory.notes.remember(b)).deduplicated).toBe(false)
  })

  it('never merges notes about different peers', async () => {
    t = await openTestMemory({ embeddings: createFakeEmbeddings({ dimensions: 64 }) })
    const note = { description: 'Editor', content: 'Uses neovim.' }
    await t.memory.notes.remember({ ...note, observedId: 'alice' })
    expect((await t.memory.notes.remember({ ...note, observedId: 'bob' })).deduplicated).toBe(false)
    expect((await t.memory.notes.remember({ ...note, observedId: 'bob' })).deduplicated).toBe(true)
  })
})

describe('remember without embeddings', () => {
  it('de-duplicates only an identical normalised content', async () => {
    t = await openTestMemory()
    const first = await t.memory.notes.remember({ description: 'Deploy', content: 'We deploy to fly.io.' })
    const same = await t.memory.notes.remember({
      description: 'Deploy target',
      content: '  we deploy to  FLY.IO ',
    })
    const other = await t.memory.notes.remember({ description: 'Deploy', content: 'We deploy to AWS.' })
    expect(same).toMatchObject({
      deduplicated: true,
      note: { id: first.note.id, content: 'we deploy to  FLY.IO' },
    })
    expect(other.deduplicated).toBe(false)
  })

  it('refuses bad input without writing', async () => {
    t = await openTestMemory()
    const bad = [
      { description: '', content: 'x' },
      { description: 'two\nlines', content: 'x' },
      { description: 'd', content: '   ' },
      { description: 'd', content: 'x', importance: Number.NaN },
      { description: 'd', content: 'x', metadata: [] as unknown as Record<string, unknown> },
    ]
    for (const input of bad) await expect(t.memory.notes.remember(input)).rejects.toBeInstanceOf(HyMemError)
    expect((await t.memory.stats()).counts.notes).toBe(0)
  })
})

describe('searchNotes', () => {
  it('lets keyword hits bypass the similarity floor, and drops weak vector-only hits', async () => {
    t = await openTestMemory({ embeddings: createFakeEmbeddings({ dimensions: 64 }) })
    const code = await t.memory.notes.remember({
      description: 'Flaky CI error',
      content: 'ERRSOCKET42 means the runner lost its cache volume.',
    })
    await t.memory.notes.remember({ description: 'Lunch', content: 'Thursday is pizza day at the office.' })
    const hits = await t.memory.notes.search('ERRSOCKET42', { minSimilarity: 1 })
    expect(hits.map((hit) => [hit.note.id, hit.lexical])).toEqual([[code.note.id, true]])
    expect(await t.memory.notes.search('quantum chromodynamics lattice', { minSimilarity: 0.99 })).toEqual([])
  })

  it('drops hits far below the best one (relative cut-off), unless disabled', async () => {
    t = await openTestMemory({ embeddings: createFakeEmbeddings({ dimensions: 64 }) })
    const best = await t.memory.notes.remember({
      description: 'database choice',
      content: 'postgres database for billing',
    })
    await t.memory.notes.remember({ description: 'weather', content: 'sunny with a light breeze' })
    const gated = await t.memory.notes.search('postgres database billing choice', {
      minSimilarity: 0,
      relativeCutoff: 0.15,
    })
    const open = await t.memory.notes.search('postgres database billing choice', {
      minSimilarity: 0,
      relativeCutoff: 0,
    })
    expect(gated[0]?.note.id).toBe(best.note.id)
    expect(open.length).toBeGreaterThan(gated.length)
    for (const hit of gated) {
      expect(hit.lexical || (hit.similarity ?? 0) >= (gated[0]?.similarity ?? 0) - 0.15).toBe(true)
    }
  })

  it('works keyword-only without embeddings, refreshes last access and logs every search', async () => {
    t = await openTestMemory()
    const note = await t.memory.notes.remember({
      description: 'Package manager',
      content: 'Always use pnpm, never npm.',
    })
    t.clock.advanceDays(3)
    const [hit] = await t.memory.notes.search('which package manager')
    expect(hit).toMatchObject({ similarity: null, lexical: true, note: { id: note.note.id } })
    expect(hit?.note.lastAccessedAt).toBe('2026-03-04T09:00:00.000Z')
    expect((await t.memory.notes.get(note.note.id))?.lastAccessedAt).toBe('2026-03-04T09:00:00.000Z')
    expect(await t.memory.notes.search('kubernetes')).toEqual([])
    const { search } = await t.memory.stats()
    expect(search).toMatchObject({ searches: 2, emptyRate: 0.5, avgHits: 0.5, bySurface: { notes: 2 } })
    expect(search.recentMisses).toEqual([
      { query: 'kubernetes', surface: 'notes', at: '2026-03-04T09:00:00.000Z' },
    ])
  })

  it('filters by observer and observed peer', async () => {
    t = await openTestMemory()
    await t.memory.notes.remember({
      description: 'Editor',
      content: 'alice uses neovim',
      observedId: 'alice',
    })
    const bob = await t.memory.notes.remember({
      description: 'Editor',
      content: 'bob uses neovim',
      observedId: 'bob',
    })
    const hits = await t.memory.notes.search('neovim', { observedId: 'bob' })
    expect(hits.map((hit) => hit.note.id)).toEqual([bob.note.id])
  })
})

describe('forget and restore', () => {
  async function seed() {
    t = await openTestMemory()
    const old1 = await t.memory.notes.remember({ description: 'Old tip one', content: 'use tabs' })
    t.clock.advanceDays(1)
    const old2 = await t.memory.notes.remember({ description: 'Old tip two', content: 'use spaces' })
    const pinned = await t.memory.notes.remember({
      description: 'Pinned',
      content: 'production is eu-west-1',
      importance: 5,
    })
    t.clock.advanceDays(200)
    const fresh = await t.memory.notes.remember({
      description: 'Fresh',
      content: 'new laptop arrives friday',
    })
    return { old1: old1.note, old2: old2.note, pinned: pinned.note, fresh: fresh.note }
  }

  it('dry-runs by default, reporting the true total, stalest first, truncated at limit', async () => {
    const { old1, old2 } = await seed()
    const dry = await t.memory.notes.archive({ staleDays: 180 })
    expect(dry).toMatchObject({ matched: 2, applied: false, truncated: false })
    expect(dry.notes.map((n) => n.id)).toEqual([old1.id, old2.id])
    const cut = await t.memory.notes.archive({ staleDays: 180, limit: 1 })
    expect(cut).toMatchObject({ matched: 2, truncated: true })
    expect(cut.notes.map((n) => n.id)).toEqual([old1.id])
    expect((await t.memory.stats()).notes).toEqual({ active: 4, archived: 0 })
  })

  it('applies exactly what the dry run reported; archived notes leave search and get', async () => {
    const { old1, old2, pinned, fresh } = await seed()
    const applied = await t.memory.notes.archive({ staleDays: 180, apply: true, limit: 1 })
    expect(applied).toMatchObject({ matched: 2, applied: true, truncated: true })
    expect(applied.notes[0]?.archivedAt).toBe('2026-09-18T09:00:00.000Z')
    expect((await t.memory.stats()).notes).toEqual({ active: 2, archived: 2 })
    expect(await t.memory.notes.get(old1.id)).toBeNull()
    expect((await t.memory.notes.get(old1.id, { includeArchived: true }))?.archivedAt).not.toBeNull()
    expect((await t.memory.notes.search('use tabs spaces')).map((hit) => hit.note.id)).toEqual([])
    expect(await t.memory.notes.get(pinned.id)).not.toBeNull()
    expect(await t.memory.notes.get(fresh.id)).not.toBeNull()
    expect((await t.memory.notes.archive({ staleDays: 180 })).matched).toBe(0)

    const restored = await t.memory.notes.restore(old2.id)
    expect(restored).toMatchObject({
      id: old2.id,
      archivedAt: null,
      lastAccessedAt: '2026-09-18T09:00:00.000Z',
    })
    expect((await t.memory.notes.archive({ staleDays: 180 })).matched).toBe(0)
    expect(await t.memory.notes.restore('no-such-note')).toBeNull()
  })

  it('forgets one note by id, and deletes for good', async () => {
    const { fresh, pinned } = await seed()
    expect(await t.memory.notes.archive({ id: fresh.id })).toMatchObject({ matched: 1, applied: false })
    expect(await t.memory.notes.get(fresh.id)).not.toBeNull()
    expect(await t.memory.notes.archive({ id: fresh.id, apply: true })).toMatchObject({
      matched: 1,
      applied: true,
    })
    expect(await t.memory.notes.archive({ id: fresh.id, apply: true })).toMatchObject({ matched: 0 })
    expect(await t.memory.erase.note(pinned.id)).not.toBeNull()
    expect(await t.memory.erase.note(pinned.id)).toBeNull()
    expect(await t.memory.notes.get(pinned.id, { includeArchived: true })).toBeNull()
  })

  it('keeps notes of other workspaces apart', async () => {
    t = await openTestMemory()
    const note = await t.memory.notes.remember({ description: 'x', content: 'y' }, { workspaceId: 'other' })
    expect(await t.memory.notes.get(note.note.id)).toBeNull()
    expect(await t.memory.notes.get(note.note.id, { workspaceId: 'other' })).not.toBeNull()
    t.clock.advanceDays(365)
    expect((await t.memory.notes.archive({})).matched).toBe(0)
    expect((await t.memory.notes.archive({}, { workspaceId: 'other' })).matched).toBe(1)
  })
})

describe('when the embedding provider fails', () => {
  it('still saves and finds notes by keyword, and reports the failure through log', async () => {
    const { startFakeOpenAIServer } = await import('@hymem/extraction/testing')
    const { createOpenAICompatibleEmbeddings } = await import('@hymem/extraction')
    const server = await startFakeOpenAIServer({ apiKey: 'right-key' })
    try {
      const embeddings = createOpenAICompatibleEmbeddings({
        apiKey: 'wrong-key',
        baseURL: server.url,
        model: 'm',
      })
      t = await openTestMemory({ embeddings })
      const { note } = await t.memory.notes.remember({
        description: 'Build tool',
        content: 'We build with turborepo.',
      })
      expect(
        (await t.memory.notes.remember({ description: 'Build', content: 'We build with turborepo' }))
          .deduplicated,
      ).toBe(true)
      const hits = await t.memory.notes.search('turborepo')
      expect(hits.map((hit) => [hit.note.id, hit.lexical, hit.similarity])).toEqual([[note.id, true, null]])
      const failures = t.events.filter((e) => e.kind === 'embed-failed')
      expect(failures.length).toBeGreaterThan(0)
      expect(failures[0]).toMatchObject({ level: 'warn', what: 'note' })
    } finally {
      await server.close()
    }
  })
})

describe("remember with dedupe: 'exact'", () => {
  it('merges only the same normalised content, level and session, keeping the first wording', async () => {
    t = await openTestMemory({
      embeddings: createFakeEmbeddings({ dimensions: 64 }),
      notes: { dedupeThreshold: 0, dedupeContentThreshold: 0 },
    })
    const save = (content: string, extra: Record<string, string> = {}) =>
      t.memory.notes.remember({ description: 'x', content, dedupe: 'exact', ...extra })
    const first = await save('Conclusion A', { sessionId: 's1' })
    expect((await save('Conclusion B', { sessionId: 's1' })).deduplicated).toBe(false)
    expect((await save('Conclusion A', { sessionId: 's2' })).deduplicated).toBe(false)
    expect((await save('Conclusion A', { sessionId: 's1', level: 'deductive' })).deduplicated).toBe(false)
    const again = await save('  conclusion a ', { sessionId: 's1' })
    expect(again).toMatchObject({
      deduplicated: true,
      note: { id: first.note.id, content: 'Conclusion A', timesDerived: 2 },
    })
    await expect(
      t.memory.notes.remember({ description: 'x', content: 'y', dedupe: 'fuzzy' as never }),
    ).rejects.toThrow("dedupe must be 'similar' or 'exact'")
  })
})
