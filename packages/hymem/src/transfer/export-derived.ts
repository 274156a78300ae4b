import type { BackupChunk, BackupVector, Store, VectorIndexName } from '@hymem/core-store'
import type { DumpRecord } from './records'
import { encodeVector } from './vector-codec'

const PAGE = 500

/** What the export of one workspace shares between its parts. */
export interface ExportContext {
  readonly store: Store
  readonly workspaceId: string
  readonly withVectors: boolean
}

export const line = (record: DumpRecord): string => JSON.stringify(record)

/** Stored vectors of some rows, by id (empty unless vectors are exported). */
export async function vectorsOf(
  ctx: ExportContext,
  index: VectorIndexName,
  ids: readonly (number | string)[],
): Promise<Map<number | string, BackupVector>> {
  if (!ctx.withVectors || ids.length === 0) return new Map()
  const vectors = await ctx.store.backup.vectors(index, ctx.workspaceId, ids)
  return new Map(vectors.map((v) => [v.id, v]))
}

/** Public ids of the workspace's internal message ids, skipping messages no longer stored. */
async function publicIds(ctx: ExportContext, ids: readonly number[]): Promise<Map<number, string>> {
  return ctx.store.messages.publicIdsOf(ctx.workspaceId, ids)
}

const mapped = (ids: readonly number[], refs: ReadonlyMap<number, string>): string[] =>
  ids.flatMap((id) => {
    const ref = refs.get(id)
    return ref === undefined ? [] : [ref]
  })

/** Chunks with their processing marks, mentions and (optionally) vectors; `ref` is the store's chunk id. */
export async function* exportChunks(ctx: ExportContext): AsyncGenerator<string> {
  let page: BackupChunk[] = []
  const flush = async function* (items: readonly BackupChunk[]) {
    const refs = await publicIds(
      ctx,
      items.flatMap((c) => [...c.messageIds, c.firstMessageId, c.lastMessageId]),
    )
    const vectors = await vectorsOf(
      ctx,
      'chunks',
      items.map((c) => c.id),
    )
    for (const chunk of items) {
      const messageIds = mapped(chunk.messageIds, refs)
      const first = refs.get(chunk.firstMessageId)
      const last = refs.get(chunk.lastMessageId)
      if (messageIds.length === 0 || first === undefined || last === undefined) continue
      const vector = vectors.get(chunk.id)
      yield line({
        type: 'chunk',
        workspaceId: ctx.workspaceId,
        ref: chunk.id,
        sessionId: chunk.sessionId,
        text: chunk.text,
        salienceReason: chunk.salienceReason,
        messageIds,
        firstMessageId: first,
        lastMessageId: last,
        occurredAt: chunk.occurredAt,
        createdAt: chunk.createdAt,
        processed: [...chunk.processed],
        mentions: [...chunk.mentions],
        ...(vector ? { vector: encodeVector(vector) } : {}),
      })
    }
  }
  for await (const chunk of ctx.store.backup.rows('chunks', ctx.workspaceId)) {
    page.push(chunk)
    if (page.length >= PAGE) {
      yield* flush(page)
      page = []
    }
  }
  yield* flush(page)
}

export async function* exportEntityTypes(ctx: ExportContext): AsyncGenerator<string> {
  for await (const t of ctx.store.backup.rows('entity_types', ctx.workspaceId)) {
    yield line({
      type: 'entity-type',
      workspaceId: ctx.workspaceId,
      entity: t.entity,
      entityType: t.type,
      evidence: t.evidence,
      updatedAt: t.updatedAt,
    })
  }
}

export async function* exportMarkers(ctx: ExportContext): AsyncGenerator<string> {
  for await (const m of ctx.store.backup.rows('behavioral_markers', ctx.workspaceId)) {
    yield line({
      type: 'marker',
      workspaceId: ctx.workspaceId,
      peerId: m.peerId,
      chunk: m.chunkId,
      kind: m.kind,
      statement: m.statement,
      consolidated: m.consolidated,
      observedAt: m.observedAt,
      createdAt: m.createdAt,
    })
  }
}

export async function* exportEpisodes(ctx: ExportContext): AsyncGenerator<string> {
  for await (const e of ctx.store.backup.rows('episodes', ctx.workspaceId)) {
    const refs = await publicIds(ctx, e.messageIds)
    const vector = (await vectorsOf(ctx, 'episodes', [e.id])).get(e.id)
    yield line({
      type: 'episode',
      workspaceId: ctx.workspaceId,
      id: e.id,
      sessionId: e.sessionId,
      title: e.title,
      summary: e.summary,
      outcome: e.outcome,
      entities: [...e.entities],
      chunks: [...e.chunkIds],
      messageIds: mapped(e.messageIds, refs),
      startedAt: e.startedAt,
      endedAt: e.endedAt,
      createdAt: e.createdAt,
      updatedAt: e.updatedAt,
      ...(vector ? { vector: encodeVector(vector) } : {}),
    })
  }
}

export async function* exportProcedures(ctx: ExportContext): AsyncGenerator<string> {
  for await (const p of ctx.store.backup.rows('procedures', ctx.workspaceId)) {
    const refs = await publicIds(ctx, p.messageIds)
    yield line({
      type: 'procedure',
      workspaceId: ctx.workspaceId,
      id: p.id,
      sessionId: p.sessionId,
      name: p.name,
      description: p.description,
      triggerPhrase: p.triggerPhrase,
      steps: [...p.steps],
      stepsText: p.stepsText,
      entities: [...p.entities],
      chunks: [...p.chunkIds],
      messageIds: mapped(p.messageIds, refs),
      createdAt: p.createdAt,
      updatedAt: p.updatedAt,
    })
  }
}

/** Extraction feedback, scopes, peer cards and dream runs: small tables, read whole. */
export async function* exportRest(ctx: ExportContext): AsyncGenerator<string> {
  const { store, workspaceId } = ctx
  for await (const f of store.backup.rows('extraction_feedback', workspaceId)) {
    yield line({
      type: 'feedback',
      workspaceId,
      subject: f.subject,
      predicate: f.predicate,
      object: f.object,
      chunkText: f.chunkText,
      reason: f.reason,
      createdAt: f.createdAt,
    })
  }
  for await (const s of store.backup.rows('scopes', workspaceId)) {
    yield line({
      type: 'scope',
      workspaceId,
      id: s.id,
      metadata: s.metadata,
      createdAt: s.createdAt,
      sessions: [...s.sessions],
    })
  }
  for await (const c of store.backup.rows('peer_cards', workspaceId)) {
    yield line({
      type: 'peer-card',
      workspaceId,
      observerId: c.observerId,
      observedId: c.observedId,
      card: [...c.card],
      updatedAt: c.updatedAt,
    })
  }
  for await (const r of store.backup.rows('dream_runs', workspaceId)) {
    yield line({ type: 'dream-run', ...r, errors: [...r.errors] })
  }
}
