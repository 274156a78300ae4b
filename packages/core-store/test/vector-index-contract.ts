import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { builderOf } from '../src/store/builder'
import type { BackendUnderTest } from './backends'
import { addChunk, addEdge, addEpisode, addNote, vec } from './fixtures'
import { expectStoreError } from './store-harness'

const MODEL = 'test-embed-4d'
const ids = (hits: { id: number | string }[]) => hits.map((h) => h.id)

/** The VectorIndex contract, run against every backend (sqlite-vec, the JS cosine scan, pgvector). */
export function describeVectorIndexContract(backend: BackendUnderTest) {
  describe(`VectorIndex contract: ${backend.label}`, () => {
    const stores = backend.use()
    const open = () => stores.open()

    it('reports its mode and returns nothing before the first write', async () => {
      const store = await open()
      expect(store.vectors.mode).toBe(backend.vectorMode)
      expect(await store.vectors.pinned('chunks')).toBeNull()
      expect(
        await store.vectors.nearest('chunks', vec(1, 0, 0, 0), { workspaceId: 'w', k: 3, model: MODEL }),
      ).toEqual([])
    })

    it('returns the nearest chunks first, within the workspace, with cosine distance', async () => {
      const store = await open()
      const east = await addChunk(store, 'w', 'east')
      const north = await addChunk(store, 'w', 'north')
      const northEast = await addChunk(store, 'w', 'north-east')
      const foreign = await addChunk(store, 'other', 'east elsewhere')
      await store.vectors.upsert(
        'chunks',
        [
          { id: east, workspaceId: 'w', vector: vec(1, 0, 0, 0), textHash: 'e' },
          { id: north, workspaceId: 'w', vector: vec(0, 1, 0, 0), textHash: 'n' },
          { id: northEast, workspaceId: 'w', vector: vec(1, 1, 0, 0), textHash: 'ne' },
          { id: foreign, workspaceId: 'other', vector: vec(1, 0, 0, 0), textHash: 'e' },
        ],
        MODEL,
      )
      const hits = await store.vectors.nearest('chunks', vec(1, 0.1, 0, 0), {
        workspaceId: 'w',
        k: 2,
        model: MODEL,
      })
      expect(ids(hits)).toEqual([east, northEast])
      expect(hits[0]?.distance).toBeCloseTo(1 - 1 / Math.hypot(1, 0.1), 5)
      expect(hits[0]?.similarity).toBeCloseTo(1 - (hits[0]?.distance ?? 0), 6)
      const all = await store.vectors.nearest('chunks', vec(0, 1, 0, 0), {
        workspaceId: 'w',
        k: 10,
        model: MODEL,
      })
      expect(ids(all)).toEqual([north, northEast, east])
      expect(all[2]?.distance).toBeCloseTo(1, 5)
      expect(await store.vectors.pinned('chunks')).toEqual({ model: MODEL, dimensions: 4 })
    })

    it('pins model and dimension on the first write and refuses a mismatch, telling to re-index', async () => {
      const store = await open()
      const id = await addChunk(store, 'w', 'x')
      await store.vectors.upsert(
        'chunks',
        [{ id, workspaceId: 'w', vector: vec(1, 0, 0, 0), textHash: 'h' }],
        MODEL,
      )
      const other = await expectStoreError(
        store.vectors.upsert(
          'chunks',
          [{ id, workspaceId: 'w', vector: vec(1, 0, 0, 0), textHash: 'h' }],
          'other-model',
        ),
        'VECTOR_MISMATCH',
      )
      expect(other.message).toMatchInlineSnapshot(
        `"the chunks vector index holds test-embed-4d vectors of dimension 4, not other-model of dimension 4; re-index with \`hymem reindex\`"`,
      )
      await expectStoreError(
        store.vectors.upsert(
          'chunks',
          [{ id, workspaceId: 'w', vector: vec(1, 0, 0), textHash: 'h' }],
          MODEL,
        ),
        'VECTOR_MISMATCH',
      )
      await expectStoreError(
        store.vectors.nearest('chunks', vec(1, 0, 0), { workspaceId: 'w', k: 1, model: MODEL }),
        'VECTOR_MISMATCH',
      )
      await expectStoreError(
        store.vectors.nearest('chunks', vec(1, 0, 0, 0), { workspaceId: 'w', k: 1, model: 'other-model' }),
        'VECTOR_MISMATCH',
      )
      expect(await store.vectors.pinned('episodes')).toBeNull()
    })

    it('re-upserting replaces the vector and text hash; remove drops them', async () => {
      const store = await open()
      const a = await addChunk(store, 'w', 'a')
      const b = await addChunk(store, 'w', 'b')
      await store.vectors.upsert(
        'chunks',
        [
          { id: a, workspaceId: 'w', vector: vec(1, 0, 0, 0), textHash: 'a1' },
          { id: b, workspaceId: 'w', vector: vec(0, 1, 0, 0), textHash: 'b1' },
        ],
        MODEL,
      )
      await store.vectors.upsert(
        'chunks',
        [{ id: a, workspaceId: 'w', vector: vec(0, 1, 0.1, 0), textHash: 'a2' }],
        MODEL,
      )
      expect(await store.vectors.textHashes('chunks', 'w', [a, b, 999])).toEqual(
        new Map<number | string, string>([
          [a, 'a2'],
          [b, 'b1'],
        ]),
      )
      const near = await store.vectors.nearest('chunks', vec(0, 0, 1, 0), {
        workspaceId: 'w',
        k: 1,
        model: MODEL,
      })
      expect(ids(near)).toEqual([a])
      // Another workspace cannot remove (or read) this workspace's vector.
      await store.vectors.remove('chunks', 'elsewhere', [a])
      expect(await store.vectors.textHashes('chunks', 'elsewhere', [a])).toEqual(new Map())
      expect(await store.vectors.textHashes('chunks', 'w', [a])).toEqual(new Map([[a, 'a2']]))
      await store.vectors.remove('chunks', 'w', [a])
      expect(
        ids(await store.vectors.nearest('chunks', vec(0, 0, 1, 0), { workspaceId: 'w', k: 5, model: MODEL })),
      ).toEqual([b])
      expect(await store.vectors.textHashes('chunks', 'w', [a])).toEqual(new Map())
    })

    it('forgets a vector when its chunk is deleted', async () => {
      const store = await open()
      const a = await addChunk(store, 'w', 'a')
      const b = await addChunk(store, 'w', 'b')
      await store.vectors.upsert(
        'chunks',
        [
          { id: a, workspaceId: 'w', vector: vec(1, 0, 0, 0), textHash: 'a' },
          { id: b, workspaceId: 'w', vector: vec(0, 1, 0, 0), textHash: 'b' },
        ],
        MODEL,
      )
      await builderOf(store).deleteFrom('chunks').where('id', '=', a).execute()
      expect(
        ids(await store.vectors.nearest('chunks', vec(1, 0, 0, 0), { workspaceId: 'w', k: 5, model: MODEL })),
      ).toEqual([b])
    })

    it('indexes episodes and notes by their text ids', async () => {
      const store = await open()
      await addEpisode(store, 'w', 'ep-db', 'Database choice', 'They picked Postgres')
      await addEpisode(store, 'w', 'ep-ui', 'UI work', 'They restyled the page')
      await addNote(store, 'w', 'note-1', 'likes tea', 'The user drinks green tea')
      await store.vectors.upsert(
        'episodes',
        [
          { id: 'ep-db', workspaceId: 'w', vector: vec(1, 0, 0, 0), textHash: 'x' },
          { id: 'ep-ui', workspaceId: 'w', vector: vec(0, 0, 1, 0), textHash: 'y' },
        ],
        MODEL,
      )
      await store.vectors.upsert(
        'notes',
        [{ id: 'note-1', workspaceId: 'w', vector: vec(0, 1, 0, 0), textHash: 'z' }],
        MODEL,
      )
      expect(
        ids(
          await store.vectors.nearest('episodes', vec(0, 0.2, 1, 0), {
            workspaceId: 'w',
            k: 2,
            model: MODEL,
          }),
        ),
      ).toEqual(['ep-ui', 'ep-db'])
      expect(
        ids(await store.vectors.nearest('notes', vec(0, 1, 0, 0), { workspaceId: 'w', k: 2, model: MODEL })),
      ).toEqual(['note-1'])
      expect(await store.vectors.textHashes('episodes', 'w', ['ep-db', 'nope'])).toEqual(
        new Map([['ep-db', 'x']]),
      )
      await store.vectors.remove('episodes', 'elsewhere', ['ep-ui'])
      expect(await store.vectors.textHashes('episodes', 'w', ['ep-ui'])).toEqual(
        new Map([['ep-ui', expect.any(String)]]),
      )
      await store.vectors.remove('episodes', 'w', ['ep-ui'])
      expect(
        ids(
          await store.vectors.nearest('episodes', vec(0, 0, 1, 0), { workspaceId: 'w', k: 2, model: MODEL }),
        ),
      ).toEqual(['ep-db'])
      await expectStoreError(
        store.vectors.upsert(
          'notes',
          [{ id: 'missing-note', workspaceId: 'w', vector: vec(1, 0, 0, 0), textHash: 'q' }],
          MODEL,
        ),
        'NOT_FOUND',
      )
    })

    it('indexes edges by knowledge_graph id and drops them with their edge', async () => {
      const store = await open()
      const uses = await addEdge(store, 'w', ['api', 'uses', 'postgres'])
      const prefers = await addEdge(store, 'w', ['user', 'prefers', 'tea'])
      await store.vectors.upsert(
        'edges',
        [
          { id: uses, workspaceId: 'w', vector: vec(1, 0, 0, 0), textHash: 'api uses postgres' },
          { id: prefers, workspaceId: 'w', vector: vec(0, 1, 0, 0), textHash: 'user prefers tea' },
        ],
        MODEL,
      )
      expect(
        ids(
          await store.vectors.nearest('edges', vec(1, 0.5, 0, 0), { workspaceId: 'w', k: 5, model: MODEL }),
        ),
      ).toEqual([uses, prefers])
      await builderOf(store).deleteFrom('knowledge_graph').where('id', '=', uses).execute()
      expect(
        ids(await store.vectors.nearest('edges', vec(1, 0, 0, 0), { workspaceId: 'w', k: 5, model: MODEL })),
      ).toEqual([prefers])
    })

    it('caches edge vectors by triple text across edges', async () => {
      const store = await open()
      expect(await store.vectors.cachedTextVectors(MODEL, ['a uses b'])).toEqual(new Map())
      await store.vectors.cacheTextVectors(MODEL, [
        { text: 'a uses b', vector: Float32Array.from([0.5, 0.25, 0, 1]) },
        { text: 'b depends_on c', vector: Float32Array.from([1, 0, 0, 0]) },
      ])
      await store.vectors.cacheTextVectors(MODEL, [
        { text: 'b depends_on c', vector: Float32Array.from([0, 0, 0, 1]) },
      ])
      const cached = await store.vectors.cachedTextVectors(MODEL, ['a uses b', 'b depends_on c', 'missing'])
      expect([...cached.keys()].sort()).toEqual(['a uses b', 'b depends_on c'])
      expect([...(cached.get('a uses b') ?? [])]).toEqual([0.5, 0.25, 0, 1])
      expect([...(cached.get('b depends_on c') ?? [])]).toEqual([0, 0, 0, 1])
      expect(await store.vectors.cachedTextVectors('another-model', ['a uses b'])).toEqual(new Map())
    })

    it('refuses a bad cache batch whole, leaving the cached vectors as they were', async () => {
      const store = await open()
      const good = { text: 'a uses b', vector: Float32Array.from([1, 0, 0, 0]) }
      await store.vectors.cacheTextVectors(MODEL, [good])
      await expectStoreError(store.vectors.cacheTextVectors('', [good]), 'INVALID_INPUT')
      const badText = { text: 7, vector: Float32Array.from([0, 1, 0, 0]) } as unknown as typeof good
      await expectStoreError(
        store.vectors.cacheTextVectors(MODEL, [
          { ...good, vector: Float32Array.from([0, 0, 1, 0]) },
          badText,
        ]),
        'INVALID_INPUT',
      )
      const nan = { text: 'c uses d', vector: Float32Array.from([Number.NaN, 0, 0, 0]) }
      await expectStoreError(store.vectors.cacheTextVectors(MODEL, [nan]), 'INVALID_INPUT')
      const cached = await store.vectors.cachedTextVectors(MODEL, ['a uses b', 'c uses d'])
      expect([...cached.keys()]).toEqual(['a uses b'])
      expect([...(cached.get('a uses b') ?? [])]).toEqual([1, 0, 0, 0])
    })

    it('lists its pins by index name; a reset drops every vector and pin so another model can pin', async () => {
      const store = await open()
      expect(await store.vectors.pins()).toEqual([])
      const chunk = await addChunk(store, 'w', 'east')
      await addNote(store, 'w', 'n1', 'Deploy day', 'Fridays')
      await store.vectors.upsert(
        'notes',
        [{ id: 'n1', workspaceId: 'w', vector: vec(0, 1, 0, 0), textHash: 'n' }],
        MODEL,
      )
      await store.vectors.upsert(
        'chunks',
        [{ id: chunk, workspaceId: 'w', vector: vec(1, 0, 0, 0), textHash: 'c' }],
        MODEL,
      )
      expect(await store.vectors.pins()).toEqual([
        { index: 'chunks', model: MODEL, dimensions: 4 },
        { index: 'notes', model: MODEL, dimensions: 4 },
      ])
      await store.transaction(async (tx) => {
        await tx.vectors.reset()
        await tx.vectors.upsert(
          'chunks',
          [{ id: chunk, workspaceId: 'w', vector: vec(1, 0, 0), textHash: 'c3' }],
          'other-3d',
        )
      })
      expect(await store.vectors.pins()).toEqual([{ index: 'chunks', model: 'other-3d', dimensions: 3 }])
      expect(await store.vectors.textHashes('notes', 'w', ['n1'])).toEqual(new Map())
      const hits = await store.vectors.nearest('chunks', vec(1, 0, 0), {
        workspaceId: 'w',
        k: 5,
        model: 'other-3d',
      })
      expect(ids(hits)).toEqual([chunk])
    })

    it('refuses malformed rows and queries before writing anything', async () => {
      const store = await open()
      const id = await addChunk(store, 'w', 'x')
      const good = { id, workspaceId: 'w', vector: vec(1, 0, 0, 0), textHash: 'h' }
      await expectStoreError(
        store.vectors.upsert('chunks', [good, { ...good, id: 'text' }], MODEL),
        'INVALID_INPUT',
      )
      await expectStoreError(store.vectors.upsert('episodes', [{ ...good, id: 7 }], MODEL), 'INVALID_INPUT')
      await expectStoreError(
        store.vectors.upsert(
          'chunks',
          [good, { ...good, vector: Float32Array.from([1, Number.NaN, 0, 0]) }],
          MODEL,
        ),
        'INVALID_INPUT',
      )
      await expectStoreError(
        store.vectors.upsert('chunks', [good, { ...good, vector: vec(1, 0, 0) }], MODEL),
        'INVALID_INPUT',
      )
      await expectStoreError(
        store.vectors.upsert('chunks', [{ ...good, workspaceId: '' }], MODEL),
        'INVALID_INPUT',
      )
      await expectStoreError(store.vectors.upsert('chunks', [good], ''), 'INVALID_INPUT')
      expect(await store.vectors.pinned('chunks')).toBeNull()
      await store.vectors.upsert('chunks', [good], MODEL)
      await expectStoreError(
        store.vectors.nearest('chunks', vec(1, 0, 0, 0), { workspaceId: 'w', k: 0, model: MODEL }),
        'INVALID_INPUT',
      )
      await expectStoreError(
        store.vectors.nearest('chunks', [1, 0, 0, 0] as unknown as Float32Array, {
          workspaceId: 'w',
          k: 1,
          model: MODEL,
        }),
        'INVALID_INPUT',
      )
    })

    it('joins an enclosing transaction and rolls back with it', async () => {
      const store = await open()
      const id = await addChunk(store, 'w', 'x')
      await expect(
        store.transaction(async (tx) => {
          await tx.vectors.upsert(
            'chunks',
            [{ id, workspaceId: 'w', vector: vec(1, 0, 0, 0), textHash: 'h' }],
            MODEL,
          )
          expect(
            ids(
              await tx.vectors.nearest('chunks', vec(1, 0, 0, 0), { workspaceId: 'w', k: 1, model: MODEL }),
            ),
          ).toEqual([id])
          throw new Error('roll back')
        }),
      ).rejects.toThrow('roll back')
      expect(await store.vectors.pinned('chunks')).toBeNull()
      const count = await sql<{ n: number }>`SELECT count(*) AS n FROM chunk_embeddings`.execute(
        builderOf(store),
      )
      expect(count.rows[0]?.n).toBe(0)
    })

    it('gives the cosine similarity of given ids to a query, within the workspace and model only', async () => {
      const store = await open()
      const east = await addChunk(store, 'w', 'east')
      const north = await addChunk(store, 'w', 'north')
      const blank = await addChunk(store, 'w', 'no vector')
      const zero = await addChunk(store, 'w', 'zero vector')
      const foreign = await addChunk(store, 'other', 'east elsewhere')
      await store.vectors.upsert(
        'chunks',
        [
          { id: east, workspaceId: 'w', vector: vec(1, 0, 0, 0), textHash: 'e' },
          { id: north, workspaceId: 'w', vector: vec(0, 1, 0, 0), textHash: 'n' },
          { id: zero, workspaceId: 'w', vector: new Float32Array(4), textHash: 'z' },
          { id: foreign, workspaceId: 'other', vector: vec(1, 0, 0, 0), textHash: 'e' },
        ],
        MODEL,
      )
      const query = vec(1, 1, 0, 0)
      const similarity = await store.vectors.similarities(
        'chunks',
        [east, north, blank, zero, foreign],
        query,
        {
          workspaceId: 'w',
          model: MODEL,
        },
      )
      expect([...similarity.keys()].sort()).toEqual([east, north, zero].sort())
      expect(similarity.get(east)).toBeCloseTo(Math.SQRT1_2, 5)
      expect(similarity.get(north)).toBeCloseTo(Math.SQRT1_2, 5)
      expect(similarity.get(zero)).toBe(0)
      const nearest = await store.vectors.nearest('chunks', query, { workspaceId: 'w', k: 1, model: MODEL })
      expect(similarity.get(nearest[0]!.id)).toBeCloseTo(nearest[0]!.similarity, 5)
      expect(
        await store.vectors.similarities('chunks', [], query, { workspaceId: 'w', model: MODEL }),
      ).toEqual(new Map())
      await expectStoreError(
        store.vectors.similarities('chunks', [east], vec(1, 0, 0), { workspaceId: 'w', model: MODEL }),
        'VECTOR_MISMATCH',
      )
      expect(
        await store.vectors.similarities('episodes', ['x'], query, { workspaceId: 'w', model: MODEL }),
      ).toEqual(new Map())
    })
  })
}
