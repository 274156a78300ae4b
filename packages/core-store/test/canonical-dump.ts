import { builderOf } from '../src/store/builder'
import type { Store } from '../src/store/types'

type Row = Record<string, unknown>

const parse = (text: unknown): unknown[] => (typeof text === 'string' ? (JSON.parse(text) as unknown[]) : [])
const hex = (blob: unknown) => Buffer.from(blob as Uint8Array).toString('hex')

/**
 * Every table that holds memory, row by row, with the store-local integer ids replaced by what names a row
 * across stores (public message ids, chunk spans, edge triples), sorted. Two stores holding the same memory
 * give the same dump. (hymem's export/import round-trip test reads it: only core-store reaches the tables.)
 */
export async function canonicalDump(store: Store): Promise<Record<string, string[]>> {
  const db = builderOf(store)
  const messages = await db.selectFrom('messages').selectAll().execute()
  const publicId = new Map(messages.map((m) => [m.id, m.public_id]))
  const pub = (id: unknown) => (id === null ? null : (publicId.get(id as number) ?? `missing:${String(id)}`))
  const chunks = await db.selectFrom('chunks').selectAll().execute()
  const chunkKey = new Map(
    chunks.map((c) => [
      c.id,
      `${c.workspace_id}/${c.session_id}/${pub(c.first_message_id)}-${pub(c.last_message_id)}`,
    ]),
  )
  const chunk = (id: unknown) =>
    id === null ? null : (chunkKey.get(id as number) ?? `missing:${String(id)}`)
  const edges = await db.selectFrom('knowledge_graph').selectAll().execute()
  const edgeKey = new Map(
    edges.map((e) => [e.id, `${e.workspace_id}/${e.subject}|${e.predicate}|${e.object}|${e.derived}`]),
  )
  const edge = (id: unknown) => (id === null ? null : (edgeKey.get(id as number) ?? `missing:${String(id)}`))
  const all = async (table: Parameters<typeof db.selectFrom>[0]) =>
    (await db.selectFrom(table).selectAll().execute()) as Row[]
  const without = (row: Row, ...keys: string[]) => {
    const copy = { ...row }
    for (const key of keys) delete copy[key]
    return copy
  }

  const tables: Record<string, Row[]> = {
    workspaces: await all('workspaces'),
    peers: await all('peers'),
    sessions: (await all('sessions')).map((s) => ({
      ...s,
      summary_message_id: pub(s.summary_message_id),
      last_chunked_message_id: s.last_chunked_message_id === 0 ? 0 : pub(s.last_chunked_message_id),
    })),
    session_peers: await all('session_peers'),
    messages: messages.map((m) => without(m as Row, 'id')),
    chunks: chunks.map((c) => ({
      ...without(c as Row, 'id'),
      message_ids: parse(c.message_ids).map(pub),
      first_message_id: pub(c.first_message_id),
      last_message_id: pub(c.last_message_id),
    })),
    processed_chunks: (await all('processed_chunks')).map((p) => ({ ...p, chunk_id: chunk(p.chunk_id) })),
    entity_mentions: (await all('entity_mentions')).map((m) => ({ ...m, chunk_id: chunk(m.chunk_id) })),
    entity_types: await all('entity_types'),
    entity_aliases: await all('entity_aliases'),
    knowledge_graph: edges.map((e) => ({ ...without(e as Row, 'id'), superseded_by: edge(e.superseded_by) })),
    kg_evidence: (await all('kg_evidence')).map((e) => ({
      ...without(e, 'id'),
      edge_id: edge(e.edge_id),
      chunk_id: chunk(e.chunk_id),
      message_ids: parse(e.message_ids).map(pub),
    })),
    behavioral_markers: (await all('behavioral_markers')).map((m) => ({
      ...without(m, 'id'),
      chunk_id: chunk(m.chunk_id),
    })),
    profile_entries: (await all('profile_entries')).map((p) => without(p, 'id')),
    episodes: (await all('episodes')).map((e) => ({
      ...e,
      chunk_ids: parse(e.chunk_ids).map(chunk),
      message_ids: parse(e.message_ids).map(pub),
    })),
    procedures: (await all('procedures')).map((p) => ({
      ...p,
      chunk_ids: parse(p.chunk_ids).map(chunk),
      message_ids: parse(p.message_ids).map(pub),
    })),
    extraction_feedback: (await all('extraction_feedback')).map((f) => without(f, 'id')),
    notes: await all('notes'),
    scopes: await all('scopes'),
    scope_sessions: await all('scope_sessions'),
    peer_cards: await all('peer_cards'),
    dream_runs: (await all('dream_runs')).map((r) => without(r, 'id')),
    chunk_embeddings: (await all('chunk_embeddings')).map((v) => ({
      ...v,
      chunk_id: chunk(v.chunk_id),
      vector: hex(v.vector),
    })),
    edge_vectors: (await all('edge_vectors')).map((v) => ({
      ...v,
      edge_id: edge(v.edge_id),
      vector: hex(v.vector),
    })),
    episode_embeddings: (await all('episode_embeddings')).map((v) => ({ ...v, vector: hex(v.vector) })),
    note_embeddings: (await all('note_embeddings')).map((v) => ({ ...v, vector: hex(v.vector) })),
    message_embeddings: (await all('message_embeddings')).map((v) => ({
      ...v,
      message_id: pub(v.message_id),
      vector: hex(v.vector),
    })),
    vector_indexes: (await all('vector_indexes')).map((v) => without(v, 'created_at')),
  }
  return Object.fromEntries(
    Object.entries(tables).map(([name, rows]) => [name, rows.map((row) => JSON.stringify(row)).sort()]),
  )
}
