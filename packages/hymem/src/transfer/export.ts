import type { Store } from '@hymem/core-store'
import { DUMP_FORMAT, DUMP_FORMAT_VERSION, type DumpRecord } from './records'

const PAGE = 500

/**
 * Streams a JSONL dump: a header line, then per workspace its workspace, peers, sessions (with membership),
 * messages, aliases, edges (with evidence), profile entries and notes. No embeddings: a dump survives an
 * embedding-model change. Internal integer ids never appear; messages are named by their public ids.
 */
export async function* exportLines(store: Store, workspaceId?: string): AsyncGenerator<string> {
  yield line({
    type: 'header',
    format: DUMP_FORMAT,
    version: DUMP_FORMAT_VERSION,
    exportedAt: store.context.now(),
    schemaVersion: store.info().schemaVersion,
  })
  let workspaces = store.db.selectFrom('workspaces').selectAll().orderBy('id')
  if (workspaceId !== undefined) workspaces = workspaces.where('id', '=', workspaceId)
  for (const ws of await workspaces.execute()) {
    yield line({
      type: 'workspace',
      id: ws.id,
      metadata: object(ws.metadata),
      configuration: object(ws.configuration),
      createdAt: ws.created_at,
    })
    yield* exportWorkspace(store, ws.id)
  }
}

async function* exportWorkspace(store: Store, ws: string): AsyncGenerator<string> {
  const { db } = store
  for (const peer of await db
    .selectFrom('peers')
    .selectAll()
    .where('workspace_id', '=', ws)
    .orderBy('id')
    .execute()) {
    yield line({
      type: 'peer',
      workspaceId: ws,
      id: peer.id,
      role: peer.role,
      metadata: object(peer.metadata),
      configuration: object(peer.configuration),
      createdAt: peer.created_at,
    })
  }

  const publicIds = async (ids: readonly number[]) => {
    const wanted = [...new Set(ids.filter((value) => Number.isInteger(value)))]
    const out = new Map<number, string>()
    for (let start = 0; start < wanted.length; start += PAGE) {
      const rows = await db
        .selectFrom('messages')
        .select(['id', 'public_id'])
        .where('id', 'in', wanted.slice(start, start + PAGE))
        .execute()
      for (const row of rows) out.set(row.id, row.public_id)
    }
    return out
  }

  const sessions = await db
    .selectFrom('sessions')
    .selectAll()
    .where('workspace_id', '=', ws)
    .orderBy('id')
    .execute()
  for (const session of sessions) {
    const members = await db
      .selectFrom('session_peers')
      .selectAll()
      .where('workspace_id', '=', ws)
      .where('session_id', '=', session.id)
      .orderBy('joined_at')
      .orderBy('peer_id')
      .execute()
    const refs = await publicIds([session.summary_message_id ?? -1, session.last_chunked_message_id])
    yield line({
      type: 'session',
      workspaceId: ws,
      id: session.id,
      isActive: session.is_active === 1,
      metadata: object(session.metadata),
      configuration: object(session.configuration),
      summary: session.summary,
      summaryMessageId:
        session.summary_message_id === null ? null : (refs.get(session.summary_message_id) ?? null),
      summaryUpdatedAt: session.summary_updated_at,
      lastChunkedMessageId: refs.get(session.last_chunked_message_id) ?? null,
      startedAt: session.started_at,
      endedAt: session.ended_at,
      createdAt: session.created_at,
      peers: members.map((member) => ({
        peerId: member.peer_id,
        configuration: object(member.configuration),
        joinedAt: member.joined_at,
        leftAt: member.left_at,
      })),
    })
  }

  let after = 0
  for (;;) {
    const page = await db
      .selectFrom('messages')
      .selectAll()
      .where('workspace_id', '=', ws)
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute()
    for (const message of page) {
      yield line({
        type: 'message',
        workspaceId: ws,
        sessionId: message.session_id,
        id: message.public_id,
        peerId: message.peer_id,
        role: message.role,
        content: message.content,
        metadata: object(message.metadata),
        tokenCount: message.token_count,
        createdAt: message.created_at,
      })
    }
    const last = page.at(-1)
    if (!last || page.length < PAGE) break
    after = last.id
  }

  for (const alias of await db
    .selectFrom('entity_aliases')
    .selectAll()
    .where('workspace_id', '=', ws)
    .orderBy('surface')
    .execute()) {
    yield line({
      type: 'alias',
      workspaceId: ws,
      surface: alias.surface,
      canonical: alias.canonical,
      createdAt: alias.created_at,
    })
  }

  yield* exportEdges(store, ws, publicIds)

  for (const entry of await db
    .selectFrom('profile_entries')
    .selectAll()
    .where('workspace_id', '=', ws)
    .orderBy('peer_id')
    .orderBy('kind')
    .orderBy('statement_key')
    .execute()) {
    yield line({
      type: 'profile',
      workspaceId: ws,
      peerId: entry.peer_id,
      kind: entry.kind,
      statement: entry.statement,
      statementKey: entry.statement_key,
      posEvidence: entry.pos_evidence,
      negEvidence: entry.neg_evidence,
      firstSeen: entry.first_seen,
      lastSeen: entry.last_seen,
    })
  }

  for (const note of await db
    .selectFrom('notes')
    .selectAll()
    .where('workspace_id', '=', ws)
    .orderBy('id')
    .execute()) {
    yield line({
      type: 'note',
      workspaceId: ws,
      id: note.id,
      description: note.description,
      content: note.content,
      importance: note.importance,
      observerId: note.observer_id,
      observedId: note.observed_id,
      sessionId: note.session_id,
      level: note.level,
      sourceIds: array(note.source_ids).filter((item): item is string => typeof item === 'string'),
      timesDerived: note.times_derived,
      metadata: object(note.metadata),
      createdAt: note.created_at,
      updatedAt: note.updated_at,
      lastAccessedAt: note.last_accessed_at,
      archivedAt: note.archived_at,
    })
  }
}

async function* exportEdges(
  store: Store,
  ws: string,
  publicIds: (ids: readonly number[]) => Promise<Map<number, string>>,
): AsyncGenerator<string> {
  const { db } = store
  const edges = await db
    .selectFrom('knowledge_graph')
    .selectAll()
    .where('workspace_id', '=', ws)
    .orderBy('subject')
    .orderBy('predicate')
    .orderBy('object')
    .orderBy('derived')
    .execute()
  const byId = new Map(edges.map((edge) => [edge.id, edge]))
  for (let start = 0; start < edges.length; start += PAGE) {
    const page = edges.slice(start, start + PAGE)
    const rows = await db
      .selectFrom('kg_evidence')
      .selectAll()
      .where(
        'edge_id',
        'in',
        page.map((edge) => edge.id),
      )
      .orderBy('edge_id')
      .orderBy('observed_at')
      .orderBy('id')
      .execute()
    const evidenceOf = new Map<number, typeof rows>()
    for (const row of rows) {
      const list = evidenceOf.get(row.edge_id)
      if (list) list.push(row)
      else evidenceOf.set(row.edge_id, [row])
    }
    const refs = await publicIds(rows.flatMap((row) => array(row.message_ids).filter(isNumber)))
    for (const edge of page) {
      const next = edge.superseded_by === null ? undefined : byId.get(edge.superseded_by)
      yield line({
        type: 'edge',
        workspaceId: ws,
        subject: edge.subject,
        predicate: edge.predicate,
        object: edge.object,
        derived: edge.derived === 1,
        posEvidence: edge.pos_evidence,
        negEvidence: edge.neg_evidence,
        confidence: edge.confidence,
        status: edge.status,
        firstSeen: edge.first_seen,
        lastSeen: edge.last_seen,
        lastReinforced: edge.last_reinforced,
        validFrom: edge.valid_from,
        validTo: edge.valid_to,
        supersededBy: next
          ? {
              subject: next.subject,
              predicate: next.predicate,
              object: next.object,
              derived: next.derived === 1,
            }
          : null,
        evidence: (evidenceOf.get(edge.id) ?? []).map((row) => ({
          messageIds: array(row.message_ids)
            .filter(isNumber)
            .flatMap((messageId) => {
              const publicId = refs.get(messageId)
              return publicId === undefined ? [] : [publicId]
            }),
          polarity: row.polarity === -1 ? -1 : 1,
          valueText: row.value_text,
          valueNumeric: row.value_numeric,
          valueUnit: row.value_unit,
          temporalScope: row.temporal_scope,
          evidenceText: row.evidence_text,
          source: row.source,
          promptVersion: row.prompt_version,
          observedAt: row.observed_at,
          createdAt: row.created_at,
        })),
      })
    }
  }
}

function line(record: DumpRecord): string {
  return JSON.stringify(record)
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value)
}

function object(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text)
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}

function array(text: string): unknown[] {
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(value) ? value : []
  } catch {
    return []
  }
}
