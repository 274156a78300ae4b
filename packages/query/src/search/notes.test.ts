import { createFakeEmbeddings } from '@hymem/extraction'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { daysAgo, indexVectors, insertNote, NOW, openTestStore, type TestStore, WS } from '../../test/harness'
import { createQueryEngine } from '../engine'
import { gateNotes } from './notes'

const notesOnly = { limits: { hits: 0, graph: 0, episodes: 0, procedures: 0 } }
const c = (id: string, similarity: number | null, keywordRank: number | null = null) => ({
  id,
  similarity,
  keywordRank,
})

describe('gateNotes', () => {
  it('drops vector-only notes under the absolute floor', () => {
    expect(gateNotes([c('a', 0.7), c('b', 0.39), c('c', 0.4)], 0.4, 0).map((n) => n.id)).toEqual(['a', 'c'])
  })
  it('drops notes more than the relative cut-off below the best', () => {
    expect(gateNotes([c('a', 0.8), c('b', 0.66), c('c', 0.64)], 0.4, 0.15).map((n) => n.id)).toEqual([
      'a',
      'b',
    ])
  })
  it('does nothing to a flat result set', () => {
    expect(gateNotes([c('a', 0.5), c('b', 0.48), c('c', 0.45)], 0.4, 0.15)).toHaveLength(3)
  })
  it('lets keyword hits bypass both gates', () => {
    const out = gateNotes([c('a', 0.9), c('k', 0.1, 1), c('z', null, 2)], 0.4, 0.15)
    expect(out.map((n) => n.id)).toEqual(['a', 'k', 'z'])
  })
  it('0 disables each gate', () => {
    expect(gateNotes([c('a', 0.9), c('b', 0.01)], 0, 0)).toHaveLength(2)
  })
})

describe('notes in augment', () => {
  let t: TestStore
  // 256 dimensions keep hash collisions of the fake embedder from blurring the gaps these tests rely on.
  const embeddings = createFakeEmbeddings({ dimensions: 256 })
  const texts: Record<string, string> = {
    runbook: 'deploy runbook: blue green deploy steps',
    similar: 'redeploying stepwise',
    food: 'favourite food is pizza margherita',
    archived: 'old deploy checklist',
    aboutBob: 'bob deploy habits',
  }
  beforeEach(async () => {
    t = openTestStore()
    await insertNote(t.store, {
      id: 'runbook',
      description: 'deploy runbook',
      content: 'blue green deploy steps',
      importance: 3,
      sourceIds: [4, 2],
    })
    await insertNote(t.store, { id: 'similar', description: 'redeploying', content: 'stepwise' })
    await insertNote(t.store, { id: 'food', description: 'favourite food', content: 'is pizza margherita' })
    await insertNote(t.store, {
      id: 'archived',
      description: 'old deploy',
      content: 'checklist',
      archived: true,
    })
    await insertNote(t.store, {
      id: 'aboutBob',
      description: 'bob deploy',
      content: 'habits',
      observedId: 'bob',
    })
    await indexVectors(
      t.store,
      embeddings,
      'notes',
      Object.entries(texts).map(([id, text]) => ({ id, text })),
    )
  })
  afterEach(() => t.close())

  const similarity = async (a: string, b: string) => {
    const [x, y] = await embeddings.embed([a, b])
    let dot = 0
    for (let i = 0; i < x!.length; i++) dot += x![i]! * y![i]!
    return dot
  }

  it('finds notes by keyword without an embedder, never archived ones, with provenance', async () => {
    const engine = createQueryEngine({ store: t.store })
    const { notes } = await engine.augment('deploy steps', { workspaceId: WS, ...notesOnly })
    expect(notes.map((n) => n.id)).toEqual(['runbook', 'aboutBob'])
    expect(notes[0]).toMatchObject({
      similarity: null,
      importance: 3,
      messageIds: [4, 2],
      whyRetrieved: ['keyword:notes#1'],
    })
    expect(notes[0]!.score).toBeCloseTo(0.1)
  })

  it('applies the floor to vector-only notes while keyword hits bypass it', async () => {
    const query = 'deploy steps'
    const near = await similarity(query, texts.similar!)
    const far = await similarity(query, texts.food!)
    expect(near).toBeGreaterThan(far)
    const floor = (near + far) / 2
    const engine = createQueryEngine({
      store: t.store,
      embeddings,
      config: { notesMinSimilarity: floor, notesRelativeCutoff: 0 },
    })
    const { notes } = await engine.augment(query, { workspaceId: WS, ...notesOnly })
    const ids = notes.map((n) => n.id)
    expect(ids).toContain('similar')
    expect(ids).not.toContain('food')
    expect(ids).not.toContain('archived')
    const similar = notes.find((n) => n.id === 'similar')!
    expect(similar.similarity).toBeCloseTo(near, 5)
    expect(similar.whyRetrieved).toEqual([`semantic_${near.toFixed(2)}`])
    const runbook = notes.find((n) => n.id === 'runbook')!
    expect(runbook.whyRetrieved).toEqual([`semantic_${runbook.similarity!.toFixed(2)}`, 'keyword:notes#1'])
  })

  it('applies the relative cut-off to the best hit', async () => {
    const query = 'pizza margherita'
    const engine = createQueryEngine({
      store: t.store,
      embeddings,
      config: { notesMinSimilarity: 0, notesRelativeCutoff: 0.05 },
    })
    const { notes } = await engine.augment(query, { workspaceId: WS, ...notesOnly })
    expect(notes[0]!.id).toBe('food')
    const best = notes[0]!.similarity!
    for (const note of notes.slice(1)) {
      if (!note.whyRetrieved.some((w) => w.startsWith('keyword:')))
        expect(note.similarity!).toBeGreaterThanOrEqual(best - 0.05)
    }
    const loose = await createQueryEngine({
      store: t.store,
      embeddings,
      config: { notesMinSimilarity: 0, notesRelativeCutoff: 0 },
    }).augment(query, { workspaceId: WS, ...notesOnly })
    expect(loose.notes.length).toBeGreaterThan(notes.length)
  })

  it('limits notes about a peer to that peer (notes about nobody always qualify)', async () => {
    const engine = createQueryEngine({ store: t.store })
    const forAtta = await engine.augment('deploy', { workspaceId: WS, peerId: 'atta', ...notesOnly })
    expect(forAtta.notes.map((n) => n.id)).toEqual(['runbook'])
    const forBob = await engine.augment('deploy', { workspaceId: WS, peerId: 'bob', ...notesOnly })
    expect(forBob.notes.map((n) => n.id).sort()).toEqual(['aboutBob', 'runbook'])
  })

  it('bumps last_accessed_at of the returned notes only', async () => {
    const engine = createQueryEngine({ store: t.store })
    await engine.augment('deploy runbook', { workspaceId: WS, limits: { ...notesOnly.limits, notes: 1 } })
    const accessedAt = async (id: string) =>
      (await t.store.notes.get(WS, id, { includeArchived: true }))?.lastAccessedAt
    const accessed = {
      runbook: await accessedAt('runbook'),
      aboutBob: await accessedAt('aboutBob'),
      archived: await accessedAt('archived'),
    }
    expect(accessed.runbook).toBe(NOW.toISOString())
    expect(accessed.aboutBob).toBe(daysAgo(10))
    expect(accessed.archived).toBe(daysAgo(10))
  })
})
