import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from '../backends'
import { addChunk, addEdge } from '../fixtures'
import { expectStoreError, manualClock, sequentialIds } from '../store-harness'

const T = '2025-12-01T08:00:00.000Z'

/** The import export cases of the store contract, run against every backend. */
export function describeImportExportContract(backend: BackendUnderTest) {
  describe('workspaces, peers, sessions and messages: what export reads and import writes', () => {
    const stores = backend.use()

    it('stores workspaces and peers exactly as given, once, and lists them by id', async () => {
      const store = await stores.open()
      const workspace = { id: 'w', metadata: { plan: 'pro' }, configuration: { a: 1 }, createdAt: T }
      expect(await store.workspaces.insertIfAbsent(workspace)).toBe(true)
      expect(await store.workspaces.insertIfAbsent({ ...workspace, metadata: {} })).toBe(false)
      await store.workspaces.insertIfAbsent({ ...workspace, id: 'a' })
      expect(await store.workspaces.listAll()).toEqual([{ ...workspace, id: 'a' }, workspace])

      const peer = {
        workspaceId: 'w',
        id: 'zed',
        role: 'assistant',
        metadata: { m: 1 },
        configuration: {},
        createdAt: T,
      } as const
      expect(await store.peers.insertIfAbsent(peer)).toBe(true)
      expect(await store.peers.insertIfAbsent({ ...peer, role: 'user' })).toBe(false)
      expect(await store.peers.insertIfAbsent({ workspaceId: 'w', id: 'amy', createdAt: T })).toBe(true)
      expect(await store.peers.listAll('w')).toEqual([
        { workspaceId: 'w', id: 'amy', role: 'user', metadata: {}, configuration: {}, createdAt: T },
        peer,
      ])
      await expectStoreError(store.workspaces.insertIfAbsent({ ...workspace, id: '' }), 'INVALID_INPUT')
      await expectStoreError(
        store.peers.insertIfAbsent({ ...peer, role: 'robot' as unknown as 'user' }),
        'INVALID_INPUT',
      )
    })

    it('lists every session with its chunking position and every member, and points sessions at messages', async () => {
      const { clock } = manualClock()
      const store = await stores.open({ clock })
      await store.workspaces.getOrCreate('w')
      const session = {
        workspaceId: 'w',
        id: 's1',
        isActive: false,
        metadata: { topic: 'db' },
        configuration: {},
        summary: 'They chose Postgres.',
        summaryUpdatedAt: T,
        startedAt: T,
        endedAt: T,
        createdAt: T,
      }
      expect(await store.sessions.insertIfAbsent(session)).toBe(true)
      expect(await store.sessions.insertIfAbsent({ ...session, summary: null })).toBe(false)
      await store.peers.insertIfAbsent({ workspaceId: 'w', id: 'bob', createdAt: T })
      await store.peers.insertIfAbsent({ workspaceId: 'w', id: 'amy', createdAt: T })
      const member = { workspaceId: 'w', sessionId: 's1', configuration: {}, joinedAt: T, leftAt: null }
      expect(await store.sessions.insertPeerIfAbsent({ ...member, peerId: 'bob' })).toBe(true)
      expect(await store.sessions.insertPeerIfAbsent({ ...member, peerId: 'bob', leftAt: T })).toBe(false)
      await store.sessions.insertPeerIfAbsent({ ...member, peerId: 'amy', leftAt: T })
      const [message] = await store.messages.insertBatch('w', 's1', [{ peerId: 'bob', content: 'hi' }])
      await store.sessions.getOrCreate('w', 's0')

      await store.sessions.setMessagePointers('w', 's1', {
        summaryMessageId: message?.id ?? null,
        lastChunkedMessageId: message?.id ?? 0,
      })
      const sessions = await store.sessions.listAll('w')
      expect(sessions.map((s) => s.id)).toEqual(['s0', 's1'])
      expect(sessions[1]).toEqual({
        ...session,
        summaryMessageId: message?.id,
        lastChunkedMessageId: message?.id,
        members: [
          { ...member, peerId: 'amy', leftAt: T },
          { ...member, peerId: 'bob' },
        ],
      })
      expect(sessions[0]).toMatchObject({ lastChunkedMessageId: 0, members: [] })
      await expectStoreError(
        store.sessions.setMessagePointers('w', 's1', { summaryMessageId: null, lastChunkedMessageId: -1 }),
        'INVALID_INPUT',
      )
    })

    it('counts the messages each session has not chunked yet', async () => {
      const store = await stores.open()
      const inserted = await store.messages.insertBatch('w', 'b', [
        { peerId: 'user', content: 'one' },
        { peerId: 'user', content: 'two' },
      ])
      await store.messages.insertBatch('w', 'a', [{ peerId: 'user', content: 'three' }])
      await store.messages.insertBatch('x', 'a', [{ peerId: 'user', content: 'elsewhere' }])
      await store.sessions.setMessagePointers('w', 'b', {
        summaryMessageId: null,
        lastChunkedMessageId: inserted[0]?.id ?? 0,
      })
      expect(await store.sessions.unchunkedCounts('w')).toEqual([
        { sessionId: 'a', messages: 1 },
        { sessionId: 'b', messages: 1 },
      ])
    })

    it('pages through messages, maps internal to public ids and back, and stores imported messages as given', async () => {
      const store = await stores.open({ newId: sequentialIds('m') })
      const batch = Array.from({ length: 1_200 }, (_, i) => ({ peerId: 'user', content: `message ${i}` }))
      const inserted = await store.messages.insertBatch('w', 's', batch)
      await store.messages.insertBatch('x', 's', [{ peerId: 'user', content: 'elsewhere' }])
      const seen: string[] = []
      for await (const message of store.messages.iterate('w')) seen.push(message.content)
      expect(seen).toEqual(batch.map((m) => m.content))

      const first = inserted[0]
      if (!first) throw new Error('no message inserted')
      expect(await store.messages.publicIdsOf('w', [first.id, first.id, 999_999, 1.5])).toEqual(
        new Map([[first.id, first.publicId]]),
      )
      expect(await store.messages.locate(null, ['m-1201', 'nope'])).toEqual(
        new Map([['m-1201', { id: expect.any(Number), workspaceId: 'x' }]]),
      )
      expect(await store.messages.publicIdsOf('x', [first.id])).toEqual(new Map())
      expect(await store.messages.locate('w', ['m-1201'])).toEqual(new Map())

      await store.sessions.getOrCreate('y', 's')
      const imported = {
        publicId: 'dump-1',
        workspaceId: 'y',
        sessionId: 's',
        peerId: 'user',
        role: 'user',
        content: 'from a dump',
        metadata: { dia_id: 'D1:1' },
        tokenCount: 42,
        createdAt: T,
      } as const
      await store.peers.insertIfAbsent({ workspaceId: 'y', id: 'user', createdAt: T })
      const ids = await store.messages.insertImported([imported])
      const id = ids.get('dump-1')
      expect(await store.messages.getByPublicId('y', 'dump-1')).toEqual({ ...imported, id })
      expect(await store.messages.insertImported([])).toEqual(new Map())
      await expectStoreError(
        store.messages.insertImported([{ ...imported, publicId: 'dump-2', tokenCount: -1 }]),
        'INVALID_INPUT',
      )
    })

    it('counts every row a workspace owns, per table, vectors and link tables included', async () => {
      const store = await stores.open()
      const [message] = await store.messages.insertBatch('w', 's', [{ peerId: 'user', content: 'one' }])
      await store.sessions.addPeers('w', 's', [{ peerId: 'user' }, { peerId: 'bot' }])
      const { id: chunkId } = await store.backup.insertChunkIfAbsent({
        workspaceId: 'w',
        sessionId: 's',
        text: 'user: one',
        salienceReason: 'fact',
        messageIds: [message!.id],
        firstMessageId: message!.id,
        lastMessageId: message!.id,
        occurredAt: T,
        createdAt: T,
        processed: [{ promptVersion: 'v1', extractor: 'rules', processedAt: T }],
        mentions: ['one', 'user'],
      })
      const edgeId = await addEdge(store, 'w', ['user', 'likes', 'one'])
      const vector = (id: number | string) => ({
        id,
        workspaceId: 'w',
        vector: new Float32Array([1, 0]),
        textHash: 'h',
      })
      await store.vectors.upsert('messages', [vector(message!.id)], 'm')
      await store.vectors.upsert('chunks', [vector(chunkId)], 'm')
      await store.vectors.upsert('edges', [vector(edgeId)], 'm')
      await store.scopes.addSessions('w', 'team', ['s'])
      await store.peerCards.set('w', 'bot', 'user', ['NAME: User'])
      await store.purges.request('w', { kind: 'note', noteId: 'gone' })
      await addChunk(store, 'other', 'elsewhere')

      const counts = await store.workspaces.counts('w')
      expect(counts).toEqual({
        peers: 2,
        sessions: 1,
        session_peers: 2,
        messages: 1,
        message_embeddings: 1,
        chunks: 1,
        processed_chunks: 1,
        entity_mentions: 2,
        chunk_embeddings: 1,
        knowledge_graph: 1,
        kg_evidence: 0,
        edge_vectors: 1,
        entity_aliases: 0,
        entity_types: 0,
        behavioral_markers: 0,
        profile_entries: 0,
        episodes: 0,
        episode_embeddings: 0,
        procedures: 0,
        notes: 0,
        note_embeddings: 0,
        extraction_feedback: 0,
        scopes: 1,
        scope_sessions: 1,
        peer_cards: 1,
        dream_runs: 0,
        search_log: 0,
        purges: 1,
      })
      const other = await store.workspaces.counts('other')
      expect(Object.keys(other)).toEqual(Object.keys(counts))
      expect(other).toMatchObject({ sessions: 1, chunks: 1, processed_chunks: 0, messages: 0, purges: 0 })
      expect(Object.values(await store.workspaces.counts('none')).every((n) => n === 0)).toBe(true)
    })
  })
}
