import type { EdgeKey, StoreScope, VectorIndexName } from '@hymem/core-store'
import type { DumpRecord, RecordOf, SessionRecord, VectorRecord } from './records'
import { decodeVector } from './vector-codec'
import { linkSessions, linkSupersedes, writeEdge } from './write-links'
import { _key, type MessageWriteState, writeMessages } from './write-messages'

const MESSAGE_BATCH = 1_000

/** A row written by an import that still needs a vector (the dump had none, or one of another model). */
export interface Unembedded {
  readonly workspaceId: string
  readonly id: number | string
}

/** Counts of one import, before re-embedding. */
export interface ImportCounts {
  readonly inserted: Record<string, number>
  readonly skipped: Record<string, number>
  readonly warnings: string[]
  /** Rows inserted without a vector, to embed after the commit. */
  readonly unembedded: Record<VectorIndexName, Unembedded[]>
}

/** Whether a vector from the dump may be stored as it is (same model as the configured embedder). */
export type VectorPolicy = (index: VectorIndexName, vector: VectorRecord) => boolean

/**
 * Writes dump records one at a time inside the caller's transaction, keeping only ids in memory (public
 * message id → row id, chunk ref → chunk id), so a dump streams through. Existing rows are skipped, never
 * overwritten: re-running an import, or importing into a memory that already holds some of it, adds nothing
 * twice. `finish()` links what can only be linked at the end (session pointers, supersede links).
 */
export class DumpWriter {
  readonly counts: ImportCounts = {
    inserted: {},
    skipped: {},
    warnings: [],
    unembedded: { chunks: [], edges: [], episodes: [], notes: [], messages: [], passages: [] },
  }
  readonly #tx: StoreScope
  readonly #acceptVector: VectorPolicy
  readonly #messages: MessageWriteState = { messageIds: new Map(), sessions: new Set(), peers: new Set() }
  readonly #chunks = new Map<string, number>()
  readonly #newSessions: SessionRecord[] = []
  readonly #supersedes: { workspaceId: string; id: number; next: EdgeKey }[] = []
  readonly #workspaces = new Set<string>()
  readonly #refusedIndexes = new Set<string>()
  readonly #pending: RecordOf<'message'>[] = []
  #orphanChunks = 0

  constructor(tx: StoreScope, acceptVector: VectorPolicy) {
    this.#tx = tx
    this.#acceptVector = acceptVector
  }

  async write(record: DumpRecord): Promise<void> {
    if (record.type === 'message') {
      this.#pending.push(record)
      if (this.#pending.length >= MESSAGE_BATCH) await this.#flush()
      return
    }
    await this.#flush()
    const tx = this.#tx
    switch (record.type) {
      case 'header':
      case 'vector-index':
        return
      case 'workspace':
        this.#workspaces.add(record.id)
        return this.#tally('workspace', await tx.workspaces.insertIfAbsent(record))
      case 'peer': {
        await this.#ensureWorkspace(record.workspaceId, record.createdAt)
        this.#messages.peers.add(_key(record.workspaceId, record.id))
        return this.#tally('peer', await tx.peers.insertIfAbsent(record))
      }
      case 'session':
        return this.#session(record)
      case 'chunk':
        return this.#chunk(record)
      case 'alias':
        await this.#ensureWorkspace(record.workspaceId, record.createdAt)
        return this.#tally(
          'alias',
          await tx.aliases.claim(record.workspaceId, record.surface, record.canonical, record.createdAt),
        )
      case 'entity-type':
        await this.#ensureWorkspace(record.workspaceId, record.updatedAt)
        return this.#tally(
          'entity-type',
          await tx.backup.insertIfAbsent('entity_types', { ...record, type: record.entityType }),
        )
      case 'edge':
        return this.#edge(record)
      case 'marker':
        await this.#ensureWorkspace(record.workspaceId, record.createdAt)
        return this.#tally(
          'marker',
          await tx.backup.insertIfAbsent('behavioral_markers', {
            ...record,
            chunkId: this.#chunkId(record.workspaceId, record.chunk),
          }),
        )
      case 'profile':
        await this.#ensureWorkspace(record.workspaceId, record.firstSeen)
        return this.#tally('profile', await tx.markers.insertProfileEntryIfAbsent(record))
      case 'episode': {
        await this.#ensureWorkspace(record.workspaceId, record.createdAt)
        const inserted = await tx.backup.insertIfAbsent('episodes', { ...record, ...this.#links(record) })
        if (inserted) await this.#vector('episodes', record.workspaceId, record.id, record.vector)
        return this.#tally('episode', inserted)
      }
      case 'procedure':
        await this.#ensureWorkspace(record.workspaceId, record.createdAt)
        return this.#tally(
          'procedure',
          await tx.backup.insertIfAbsent('procedures', { ...record, ...this.#links(record) }),
        )
      case 'feedback':
        await this.#ensureWorkspace(record.workspaceId, record.createdAt)
        return this.#tally('feedback', await tx.backup.insertIfAbsent('extraction_feedback', record))
      case 'note': {
        await this.#ensureWorkspace(record.workspaceId, record.createdAt)
        const inserted = await tx.notes.insertIfAbsent(record)
        if (inserted) await this.#vector('notes', record.workspaceId, record.id, record.vector)
        return this.#tally('note', inserted)
      }
      case 'scope':
        await this.#ensureWorkspace(record.workspaceId, record.createdAt)
        return this.#tally('scope', await tx.backup.insertIfAbsent('scopes', record))
      case 'peer-card':
        await this.#ensureWorkspace(record.workspaceId, record.updatedAt)
        return this.#tally('peer-card', await tx.backup.insertIfAbsent('peer_cards', record))
      case 'dream-run':
        await this.#ensureWorkspace(record.workspaceId, record.startedAt)
        return this.#tally('dream-run', await tx.backup.insertIfAbsent('dream_runs', record))
    }
  }

  /** Writes what is still buffered and the links only known at the end. */
  async finish(): Promise<ImportCounts> {
    await this.#flush()
    await linkSessions(this.#tx, this.#newSessions, this.#messages.messageIds)
    await linkSupersedes(this.#tx, this.#supersedes)
    for (const workspaceId of this.#workspaces) await this.#tx.graphGenerations.advance(workspaceId)
    if (this.#orphanChunks > 0)
      this.counts.warnings.push(`${this.#orphanChunks} chunk(s) skipped: their messages were not imported`)
    return this.counts
  }

  #tally(type: string, inserted: boolean): void {
    const bucket = inserted ? this.counts.inserted : this.counts.skipped
    bucket[type] = (bucket[type] ?? 0) + 1
  }

  async #flush(): Promise<void> {
    if (this.#pending.length === 0) return
    const inserted = await writeMessages(this.#tx, this.#pending.splice(0), this.#messages, {
      tally: (type, inserted) => this.#tally(type, inserted),
      warnings: this.counts.warnings,
    })
    for (const record of inserted) {
      const id = this.#messages.messageIds.get(record.id)
      if (id !== undefined) await this.#vector('messages', record.workspaceId, id, record.vector)
    }
  }

  async #ensureWorkspace(id: string, createdAt: string): Promise<void> {
    if (this.#workspaces.has(id)) return
    this.#workspaces.add(id)
    await this.#tx.workspaces.insertIfAbsent({ id, metadata: {}, configuration: {}, createdAt })
  }

  async #session(record: SessionRecord): Promise<void> {
    const tx = this.#tx
    await this.#ensureWorkspace(record.workspaceId, record.createdAt)
    const inserted = await tx.sessions.insertIfAbsent(record)
    this.#tally('session', inserted)
    this.#messages.sessions.add(_key(record.workspaceId, record.id))
    if (inserted) this.#newSessions.push(record)
    for (const member of record.peers) {
      await tx.peers.insertIfAbsent({
        workspaceId: record.workspaceId,
        id: member.peerId,
        createdAt: member.joinedAt,
      })
      this.#messages.peers.add(_key(record.workspaceId, member.peerId))
      await tx.sessions.insertPeerIfAbsent({
        workspaceId: record.workspaceId,
        sessionId: record.id,
        ...member,
      })
    }
  }

  async #chunk(record: RecordOf<'chunk'>): Promise<void> {
    const ids = this.#messageIds(record.messageIds)
    const [first, last] = this.#messageIds([record.firstMessageId, record.lastMessageId])
    if (ids.length === 0 || first === undefined || last === undefined) {
      this.#orphanChunks++
      return this.#tally('chunk', false)
    }
    const { id, inserted } = await this.#tx.backup.insertChunkIfAbsent({
      ...record,
      messageIds: ids,
      firstMessageId: first,
      lastMessageId: last,
    })
    this.#chunks.set(_key(record.workspaceId, String(record.ref)), id)
    if (inserted) await this.#vector('chunks', record.workspaceId, id, record.vector)
    this.#tally('chunk', inserted)
  }

  async #edge(record: RecordOf<'edge'>): Promise<void> {
    const id = await writeEdge(this.#tx, record, this.#messages.messageIds, (ref) =>
      this.#chunkId(record.workspaceId, ref),
    )
    this.#tally('edge', id !== null)
    if (id === null) return
    if (record.supersededBy)
      this.#supersedes.push({ workspaceId: record.workspaceId, id, next: record.supersededBy })
    await this.#vector('edges', record.workspaceId, id, record.vector)
  }

  /** Stores a row's vector from the dump when the policy accepts it; otherwise the row waits for an embed. */
  async #vector(
    index: VectorIndexName,
    workspaceId: string,
    id: number | string,
    vector: VectorRecord | undefined,
  ): Promise<void> {
    if (vector && this.#acceptVector(index, vector) && !this.#refusedIndexes.has(index)) {
      try {
        await this.#tx.vectors.upsert(
          index,
          [{ id, workspaceId, vector: decodeVector(vector), textHash: vector.textHash }],
          vector.model,
        )
        return
      } catch (error) {
        if ((error as { code?: string }).code !== 'VECTOR_MISMATCH') throw error
        this.#refusedIndexes.add(index)
        this.counts.warnings.push(`${index} vectors of the dump were not kept: ${(error as Error).message}`)
      }
    }
    this.counts.unembedded[index].push({ workspaceId, id })
  }

  #messageIds(publicIds: readonly string[]): number[] {
    return publicIds.flatMap((publicId) => {
      const id = this.#messages.messageIds.get(publicId)
      return id === undefined ? [] : [id]
    })
  }

  #chunkId(workspaceId: string, ref: number | null | undefined): number | null {
    return ref == null ? null : (this.#chunks.get(_key(workspaceId, String(ref))) ?? null)
  }

  /** An episode's or procedure's chunk and message links, in this store's ids. */
  #links(record: { workspaceId: string; chunks: readonly number[]; messageIds: readonly string[] }) {
    return {
      chunkIds: record.chunks.flatMap((ref) => {
        const id = this.#chunkId(record.workspaceId, ref)
        return id === null ? [] : [id]
      }),
      messageIds: this.#messageIds(record.messageIds),
    }
  }
}
