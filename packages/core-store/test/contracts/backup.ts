import { describe, expect, it } from 'vitest'
import type { Store } from '../../src/store/types'
import type { BackendUnderTest } from '../backends'

const T = '2026-03-01T10:00:00.000Z'

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) out.push(item)
  return out
}

async function chunkOver(store: Store) {
  const [a, b] = await store.messages.insertBatch('w', 's', [
    { peerId: 'ann', content: 'We use Postgres.' },
    { peerId: 'ann', content: 'And Redis.' },
  ])
  return store.backup.insertChunkIfAbsent({
    workspaceId: 'w',
    sessionId: 's',
    text: 'user: We use Postgres.\nuser: And Redis.',
    salienceReason: 'fact',
    messageIds: [a!.id, b!.id],
    firstMessageId: a!.id,
    lastMessageId: b!.id,
    occurredAt: T,
    createdAt: T,
    processed: [{ promptVersion: 'v1', extractor: 'rules', processedAt: T }],
    mentions: ['postgres', 'redis'],
  })
}

/** The backup cases of the store contract, run against every backend. */
export function describeBackupContract(backend: BackendUnderTest) {
  describe('backup repository', () => {
    const stores = backend.use()

    it('stores a chunk once per span, with its marks and mentions, and reads it back a page at a time', async () => {
      const store = await stores.open({ clock: () => new Date(T) })
      const first = await chunkOver(store)
      expect(first.inserted).toBe(true)
      const [chunk] = await collect(store.backup.rows('chunks', 'w'))
      expect(chunk).toMatchObject({
        id: first.id,
        processed: [{ promptVersion: 'v1', extractor: 'rules', processedAt: T }],
        mentions: ['postgres', 'redis'],
      })
      const again = await store.backup.insertChunkIfAbsent({ ...chunk!, mentions: ['kafka'] })
      expect(again).toEqual({ id: first.id, inserted: false })
      expect((await collect(store.backup.rows('chunks', 'w')))[0]?.mentions).toEqual([
        'kafka',
        'postgres',
        'redis',
      ])
      expect(await collect(store.backup.rows('chunks', 'other'))).toEqual([])
    })

    it('adds markers, feedback, entity types, episodes, procedures, scopes, cards and runs only once', async () => {
      const store = await stores.open({ clock: () => new Date(T) })
      const { id: chunkId } = await chunkOver(store)
      const marker = {
        workspaceId: 'w',
        peerId: 'ann',
        kind: 'preference' as const,
        statement: 'Ann prefers Postgres.',
        consolidated: true,
        observedAt: T,
        createdAt: T,
      }
      expect(await store.backup.insertIfAbsent('behavioral_markers', { ...marker, chunkId })).toBe(true)
      expect(await store.backup.insertIfAbsent('behavioral_markers', { ...marker, chunkId })).toBe(false)
      expect(await store.backup.insertIfAbsent('behavioral_markers', { ...marker, chunkId: null })).toBe(true)
      expect(await store.backup.insertIfAbsent('behavioral_markers', { ...marker, chunkId: null })).toBe(
        false,
      )
      expect((await collect(store.backup.rows('behavioral_markers', 'w'))).map((m) => m.chunkId)).toEqual([
        chunkId,
        null,
      ])

      const feedback = {
        workspaceId: 'w',
        subject: 'ann',
        predicate: 'uses',
        object: 'mysql',
        chunkText: null,
        reason: 'wrong',
        createdAt: T,
      }
      expect(await store.backup.insertIfAbsent('extraction_feedback', feedback)).toBe(true)
      expect(await store.backup.insertIfAbsent('extraction_feedback', feedback)).toBe(false)
      expect(await collect(store.backup.rows('extraction_feedback', 'w'))).toEqual([feedback])

      const type = { workspaceId: 'w', entity: 'postgres', type: 'database', evidence: 2, updatedAt: T }
      expect(await store.backup.insertIfAbsent('entity_types', type)).toBe(true)
      expect(await store.backup.insertIfAbsent('entity_types', { ...type, type: 'other' })).toBe(false)
      expect(await collect(store.backup.rows('entity_types', 'w'))).toEqual([type])

      const episode = {
        id: 'ep1',
        workspaceId: 'w',
        sessionId: 's',
        title: 'Databases',
        summary: 'Postgres and Redis.',
        outcome: null,
        entities: ['postgres'],
        chunkIds: [chunkId],
        messageIds: [1, 2],
        startedAt: T,
        endedAt: T,
        createdAt: T,
        updatedAt: T,
      }
      expect(await store.backup.insertIfAbsent('episodes', episode)).toBe(true)
      expect(await store.backup.insertIfAbsent('episodes', episode)).toBe(false)
      expect(await collect(store.backup.rows('episodes', 'w'))).toEqual([episode])

      const procedure = {
        id: 'p1',
        workspaceId: 'w',
        sessionId: 's',
        name: 'Deploy',
        description: 'How to deploy',
        triggerPhrase: null,
        steps: [{ order: 1, text: 'run fly deploy', tool: 'fly deploy' }],
        stepsText: '1. run fly deploy',
        entities: [],
        chunkIds: [chunkId],
        messageIds: [],
        createdAt: T,
        updatedAt: T,
      }
      expect(await store.backup.insertIfAbsent('procedures', procedure)).toBe(true)
      expect(await store.backup.insertIfAbsent('procedures', procedure)).toBe(false)
      expect(await collect(store.backup.rows('procedures', 'w'))).toEqual([procedure])

      const scope = { workspaceId: 'w', id: 'team', metadata: { a: 1 }, createdAt: T, sessions: [] }
      expect(await store.backup.insertIfAbsent('scopes', scope)).toBe(true)
      const joined = { ...scope, sessions: [{ sessionId: 's', joinedAt: T }] }
      expect(await store.backup.insertIfAbsent('scopes', joined)).toBe(false)
      expect(await collect(store.backup.rows('scopes', 'w'))).toEqual([joined])

      const card = {
        workspaceId: 'w',
        observerId: 'bot',
        observedId: 'ann',
        card: ['NAME: Ann'],
        updatedAt: T,
      }
      expect(await store.backup.insertIfAbsent('peer_cards', card)).toBe(true)
      expect(await store.backup.insertIfAbsent('peer_cards', { ...card, card: [] })).toBe(false)
      expect(await collect(store.backup.rows('peer_cards', 'w'))).toEqual([card])

      const runId = await store.dreamRuns.start('w', { extractor: 'rules', promptVersion: 'v1' })
      await store.dreamRuns.finish('w', runId, { status: 'ok', counts: { chunks: 1 } })
      const [run] = await collect(store.backup.rows('dream_runs', 'w'))
      expect(run).toMatchObject({ status: 'ok', counts: { chunks: 1 } })
      expect(await store.backup.insertIfAbsent('dream_runs', run!)).toBe(false)
      expect(await store.backup.insertIfAbsent('dream_runs', { ...run!, timings: { total: 5 } })).toBe(true)
    })

    it('reads the stored vectors of rows, with their model and text hash', async () => {
      const store = await stores.open({ clock: () => new Date(T) })
      const { id } = await chunkOver(store)
      await store.vectors.upsert(
        'chunks',
        [{ id, workspaceId: 'w', vector: new Float32Array([0.5, -1, 2]), textHash: 'h' }],
        'fake',
      )
      expect(await store.backup.vectors('chunks', 'w', [id, 999])).toEqual([
        { index: 'chunks', id, model: 'fake', textHash: 'h', vector: new Float32Array([0.5, -1, 2]) },
      ])
      expect(await store.backup.vectors('chunks', 'other', [id])).toEqual([])
    })
  })
}
