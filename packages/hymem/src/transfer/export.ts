import type { Evidence, Store } from '@hymem/core-store'
import {
  type ExportContext,
  exportChunks,
  exportEntityTypes,
  exportEpisodes,
  exportMarkers,
  exportProcedures,
  exportRest,
  line,
  vectorsOf,
} from './export-derived'
import { DUMP_FORMAT, DUMP_FORMAT_VERSION } from './records'
import { encodeVector } from './vector-codec'

const PAGE = 500

/**
 * Streams a JSONL dump (format 2, documented in the package README): a header line, the vector index pins
 * when vectors are included, then per workspace its workspace, peers, sessions (with membership and
 * summaries), messages, chunks (with processing marks and mentions), aliases, entity types, edges (with
 * evidence, validity, supersede links and when they were learned), markers, profile entries, episodes,
 * procedures, extraction feedback, notes, scopes, peer cards and dream runs. Vectors only `withVectors`
 * (otherwise an import re-embeds). Internal ids never appear: messages are named by their public ids, chunks
 * by a dump-local `ref`.
 */
export async function* exportLines(
  store: Store,
  workspaceId?: string,
  options: { readonly withVectors?: boolean } = {},
): AsyncGenerator<string> {
  const withVectors = options.withVectors === true
  yield line({
    type: 'header',
    format: DUMP_FORMAT,
    version: DUMP_FORMAT_VERSION,
    exportedAt: store.context.now(),
    schemaVersion: store.info().schemaVersion,
    vectors: withVectors,
  })
  if (withVectors) {
    for (const pin of await store.vectors.pins()) {
      // Passages are an index over the messages: the importing store's dreams split and embed them again.
      if (pin.index === 'passages') continue
      yield line({ type: 'vector-index', index: pin.index, model: pin.model, dimensions: pin.dimensions })
    }
  }
  const workspaces =
    workspaceId === undefined
      ? await store.workspaces.listAll()
      : [await store.workspaces.get(workspaceId)].flatMap((ws) => (ws ? [ws] : []))
  for (const ws of workspaces) {
    yield line({
      type: 'workspace',
      id: ws.id,
      metadata: ws.metadata,
      configuration: ws.configuration,
      createdAt: ws.createdAt,
    })
    yield* exportWorkspace({ store, workspaceId: ws.id, withVectors })
  }
}

async function* exportWorkspace(ctx: ExportContext): AsyncGenerator<string> {
  const { store, workspaceId: ws } = ctx
  for (const peer of await store.peers.listAll(ws)) {
    yield line({
      type: 'peer',
      workspaceId: ws,
      id: peer.id,
      role: peer.role,
      metadata: peer.metadata,
      configuration: peer.configuration,
      createdAt: peer.createdAt,
    })
  }

  for (const session of await store.sessions.listAll(ws)) {
    const refs = await store.messages.publicIdsOf(ws, [
      session.summaryMessageId ?? -1,
      session.lastChunkedMessageId,
    ])
    yield line({
      type: 'session',
      workspaceId: ws,
      id: session.id,
      isActive: session.isActive,
      metadata: session.metadata,
      configuration: session.configuration,
      summary: session.summary,
      summaryMessageId:
        session.summaryMessageId === null ? null : (refs.get(session.summaryMessageId) ?? null),
      summaryUpdatedAt: session.summaryUpdatedAt,
      lastChunkedMessageId: refs.get(session.lastChunkedMessageId) ?? null,
      startedAt: session.startedAt,
      endedAt: session.endedAt,
      createdAt: session.createdAt,
      peers: session.members.map((member) => ({
        peerId: member.peerId,
        configuration: member.configuration,
        joinedAt: member.joinedAt,
        leftAt: member.leftAt,
      })),
    })
  }

  for await (const message of store.messages.iterate(ws)) {
    const vector = (await vectorsOf(ctx, 'messages', [message.id])).get(message.id)
    yield line({
      type: 'message',
      workspaceId: ws,
      sessionId: message.sessionId,
      id: message.publicId,
      peerId: message.peerId,
      role: message.role,
      content: message.content,
      metadata: message.metadata,
      tokenCount: message.tokenCount,
      createdAt: message.createdAt,
      ...(vector ? { vector: encodeVector(vector) } : {}),
    })
  }

  yield* exportChunks(ctx)

  for (const alias of await store.aliases.listAll(ws)) {
    yield line({
      type: 'alias',
      workspaceId: ws,
      surface: alias.surface,
      canonical: alias.canonical,
      createdAt: alias.createdAt,
    })
  }

  yield* exportEntityTypes(ctx)
  yield* exportEdges(ctx)
  yield* exportMarkers(ctx)

  for (const entry of await store.markers.profileEntries(ws, { order: 'by-key' })) {
    yield line({
      type: 'profile',
      workspaceId: ws,
      peerId: entry.peerId,
      kind: entry.kind,
      statement: entry.statement,
      statementKey: entry.statementKey,
      posEvidence: entry.posEvidence,
      negEvidence: entry.negEvidence,
      firstSeen: entry.firstSeen,
      lastSeen: entry.lastSeen,
    })
  }

  yield* exportEpisodes(ctx)
  yield* exportProcedures(ctx)

  for await (const note of store.notes.iterate(ws)) {
    const vector = (await vectorsOf(ctx, 'notes', [note.id])).get(note.id)
    yield line({
      type: 'note',
      workspaceId: ws,
      id: note.id,
      description: note.description,
      content: note.content,
      importance: note.importance,
      observerId: note.observerId,
      observedId: note.observedId,
      sessionId: note.sessionId,
      level: note.level,
      // Message ids (integers) are local to this store; a dump carries the notes' string source ids only.
      sourceIds: note.sourceIds.filter((id): id is string => typeof id === 'string'),
      timesDerived: note.timesDerived,
      metadata: note.metadata,
      createdAt: note.createdAt,
      updatedAt: note.updatedAt,
      lastAccessedAt: note.lastAccessedAt,
      archivedAt: note.archivedAt,
      ...(vector ? { vector: encodeVector(vector) } : {}),
    })
  }
  yield* exportRest(ctx)
}

async function* exportEdges(ctx: ExportContext): AsyncGenerator<string> {
  const { store, workspaceId: ws } = ctx
  // In the order they were learned, so the importing store's ids keep the order rankings break ties by.
  const edges = (await store.edges.listAll(ws)).sort((a, b) => a.id - b.id)
  const byId = new Map(edges.map((edge) => [edge.id, edge]))
  for (let start = 0; start < edges.length; start += PAGE) {
    const page = edges.slice(start, start + PAGE)
    const evidence = await store.evidence.forEdges(
      ws,
      page.map((edge) => edge.id),
    )
    const evidenceOf = new Map<number, Evidence[]>()
    for (const item of evidence) {
      const list = evidenceOf.get(item.edgeId)
      if (list) list.push(item)
      else evidenceOf.set(item.edgeId, [item])
    }
    const refs = await store.messages.publicIdsOf(
      ws,
      evidence.flatMap((item) => item.messageIds),
    )
    const vectors = await vectorsOf(
      ctx,
      'edges',
      page.map((edge) => edge.id),
    )
    for (const edge of page) {
      const next = edge.supersededBy === null ? undefined : byId.get(edge.supersededBy)
      const vector = vectors.get(edge.id)
      yield line({
        type: 'edge',
        workspaceId: ws,
        subject: edge.subject,
        predicate: edge.predicate,
        object: edge.object,
        derived: edge.derived,
        posEvidence: edge.posEvidence,
        negEvidence: edge.negEvidence,
        confidence: edge.confidence,
        status: edge.status,
        firstSeen: edge.firstSeen,
        lastSeen: edge.lastSeen,
        lastReinforced: edge.lastReinforced,
        validFrom: edge.validFrom,
        validTo: edge.validTo,
        supersededBy: next
          ? { subject: next.subject, predicate: next.predicate, object: next.object, derived: next.derived }
          : null,
        learnedAt: edge.learnedAt,
        ...(vector ? { vector: encodeVector(vector) } : {}),
        evidence: (evidenceOf.get(edge.id) ?? []).map((item) => ({
          messageIds: item.messageIds.flatMap((messageId) => {
            const publicId = refs.get(messageId)
            return publicId === undefined ? [] : [publicId]
          }),
          chunk: item.chunkId,
          polarity: item.polarity === -1 ? -1 : 1,
          valueText: item.valueText,
          valueNumeric: item.valueNumeric,
          valueUnit: item.valueUnit,
          temporalScope: item.temporalScope,
          evidenceText: item.evidenceText,
          source: item.source,
          promptVersion: item.promptVersion,
          observedAt: item.observedAt,
          createdAt: item.createdAt,
        })),
      })
    }
  }
}
