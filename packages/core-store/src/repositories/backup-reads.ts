import { type Kysely, type Selectable, sql } from 'kysely'
import { StoreError } from '../kernel/errors'
import type {
  BehavioralMarkersTable,
  DreamRunsTable,
  EpisodesTable,
  HyMemDatabase,
  ProceduresTable,
} from '../kernel/tables'
import { blobVector } from '../search/vector-math'
import type { BackupRepository } from './backup'
import type {
  BackupDreamRun,
  BackupEpisode,
  BackupMarker,
  BackupProcedure,
  BackupVector,
} from './backup-values'
import { parseArray, parseObject, requireId } from './json'
import type { RepositoryScope } from './scope'

const PAGE = 500

const VECTOR_TABLES = {
  chunks: { table: 'chunk_embeddings', id: 'chunk_id' },
  edges: { table: 'edge_vectors', id: 'edge_id' },
  episodes: { table: 'episode_embeddings', id: 'episode_id' },
  notes: { table: 'note_embeddings', id: 'note_id' },
  messages: { table: 'message_embeddings', id: 'message_id' },
  passages: { table: 'passage_embeddings', id: 'passage_id' },
} as const

/** The export half of the backup repository: every derived row of a workspace, a page at a time. */
export function backupReads(scope: RepositoryScope): Pick<BackupRepository, BackupReadKey> {
  const { db } = scope
  /** The chunks' processing marks; PostgreSQL's `processed_chunks` carries the workspace (for sharding), SQLite's not. */
  const processedMarks = (workspaceId: string, chunkIds: readonly number[]) => {
    const marks = db.selectFrom('processed_chunks').selectAll().where('chunk_id', 'in', chunkIds)
    return (
      scope.engine.processedChunksHaveWorkspace
        ? marks.where(sql<boolean>`workspace_id = ${workspaceId}`)
        : marks
    ).execute()
  }

  return {
    async *chunks(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rowsAfter = (after: number | null) => {
        let query = db.selectFrom('chunks').selectAll().where('workspace_id', '=', workspaceId)
        if (after !== null) query = query.where('id', '>', after)
        return query.orderBy('id').limit(PAGE).execute()
      }
      for await (const rows of pages(rowsAfter)) {
        const ids = rows.map((row) => row.id)
        const [marks, mentions] = await Promise.all([
          processedMarks(workspaceId, ids),
          db
            .selectFrom('entity_mentions')
            .select(['chunk_id', 'entity'])
            .where('workspace_id', '=', workspaceId)
            .where('chunk_id', 'in', ids)
            .orderBy('entity')
            .execute(),
        ])
        for (const row of rows) {
          yield {
            id: row.id,
            workspaceId: row.workspace_id,
            sessionId: row.session_id,
            text: row.text,
            salienceReason: row.salience_reason,
            messageIds: parseArray<number>(row.message_ids),
            firstMessageId: row.first_message_id,
            lastMessageId: row.last_message_id,
            occurredAt: row.occurred_at,
            createdAt: row.created_at,
            processed: marks
              .filter((mark) => mark.chunk_id === row.id)
              .sort((a, b) => a.prompt_version.localeCompare(b.prompt_version))
              .map((mark) => ({
                promptVersion: mark.prompt_version,
                extractor: mark.extractor,
                processedAt: mark.processed_at,
              })),
            mentions: mentions.filter((m) => m.chunk_id === row.id).map((m) => m.entity),
          }
        }
      }
    },
    async entityTypes(workspaceId) {
      const rows = await db
        .selectFrom('entity_types')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('entity')
        .execute()
      return rows.map((row) => ({
        workspaceId: row.workspace_id,
        entity: row.entity,
        type: row.type,
        evidence: row.evidence,
        updatedAt: row.updated_at,
      }))
    },
    async *markers(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rowsAfter = (after: number | null) => {
        let query = db.selectFrom('behavioral_markers').selectAll().where('workspace_id', '=', workspaceId)
        if (after !== null) query = query.where('id', '>', after)
        return query.orderBy('id').limit(PAGE).execute()
      }
      for await (const rows of pages(rowsAfter)) yield* rows.map(toMarker)
    },
    async *episodes(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rowsAfter = (after: string | null) => {
        let query = db.selectFrom('episodes').selectAll().where('workspace_id', '=', workspaceId)
        if (after !== null) query = query.where('id', '>', after)
        return query.orderBy('id').limit(PAGE).execute()
      }
      for await (const rows of pages(rowsAfter)) yield* rows.map(toBackupEpisode)
    },
    async *procedures(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rowsAfter = (after: string | null) => {
        let query = db.selectFrom('procedures').selectAll().where('workspace_id', '=', workspaceId)
        if (after !== null) query = query.where('id', '>', after)
        return query.orderBy('id').limit(PAGE).execute()
      }
      for await (const rows of pages(rowsAfter)) yield* rows.map(toBackupProcedure)
    },
    async feedback(workspaceId) {
      const rows = await db
        .selectFrom('extraction_feedback')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('id')
        .execute()
      return rows.map((row) => ({
        workspaceId: row.workspace_id,
        subject: row.subject,
        predicate: row.predicate,
        object: row.object,
        chunkText: row.chunk_text,
        reason: row.reason,
        createdAt: row.created_at,
      }))
    },
    async scopes(workspaceId) {
      const [scopes, links] = await Promise.all([
        db.selectFrom('scopes').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute(),
        db
          .selectFrom('scope_sessions')
          .selectAll()
          .where('workspace_id', '=', workspaceId)
          .orderBy('session_id')
          .execute(),
      ])
      return scopes.map((row) => ({
        workspaceId: row.workspace_id,
        id: row.id,
        metadata: parseObject(row.metadata),
        createdAt: row.created_at,
        sessions: links
          .filter((link) => link.scope_id === row.id)
          .map((link) => ({ sessionId: link.session_id, joinedAt: link.joined_at })),
      }))
    },
    async peerCards(workspaceId) {
      const rows = await db
        .selectFrom('peer_cards')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('observer_id')
        .orderBy('observed_id')
        .execute()
      return rows.map((row) => ({
        workspaceId: row.workspace_id,
        observerId: row.observer_id,
        observedId: row.observed_id,
        card: parseArray(row.card),
        updatedAt: row.updated_at,
      }))
    },
    async dreamRuns(workspaceId) {
      const rows = await db
        .selectFrom('dream_runs')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('id')
        .execute()
      return rows.map(toDreamRun)
    },
    async vectors(index, workspaceId, ids) {
      const source = VECTOR_TABLES[index]
      if (!source) throw new StoreError('INVALID_INPUT', `no vector index named ${String(index)}`)
      const out: BackupVector[] = []
      for (let at = 0; at < ids.length; at += PAGE) {
        for (const row of await storedVectorsSqlite(db, source, workspaceId, ids.slice(at, at + PAGE))) {
          out.push({
            index,
            id: row.id,
            model: row.model,
            textHash: row.text_hash,
            vector: blobVector(row.vector),
          })
        }
      }
      return out
    },
  }
}

type BackupReadKey =
  | 'chunks'
  | 'entityTypes'
  | 'markers'
  | 'episodes'
  | 'procedures'
  | 'feedback'
  | 'scopes'
  | 'peerCards'
  | 'dreamRuns'
  | 'vectors'

/** Fetches pages (`after` the last row's id) until one comes back short. */
async function* pages<R extends { id: number | string }>(
  fetch: (after: R['id'] | null) => Promise<R[]>,
): AsyncGenerator<R[]> {
  let after: R['id'] | null = null
  for (;;) {
    const rows = await fetch(after)
    if (rows.length > 0) yield rows
    if (rows.length < PAGE) return
    after = rows.at(-1)!.id
  }
}

/** One statement for a page of ids: they travel as a JSON array. */
async function storedVectorsSqlite(
  db: Kysely<HyMemDatabase>,
  source: { table: string; id: string },
  workspaceId: string,
  ids: readonly (number | string)[],
) {
  const { rows } = await sql<{ id: number | string; model: string; text_hash: string; vector: Uint8Array }>`
    SELECT ${sql.ref(source.id)} AS id, model, text_hash, vector FROM ${sql.table(source.table)}
    WHERE workspace_id = ${workspaceId} AND ${sql.ref(source.id)} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))
    ORDER BY ${sql.ref(source.id)}`.execute(db)
  return rows
}

function toMarker(row: Selectable<BehavioralMarkersTable>): BackupMarker {
  return {
    workspaceId: row.workspace_id,
    peerId: row.peer_id,
    chunkId: row.chunk_id,
    kind: row.kind,
    statement: row.statement,
    consolidated: row.consolidated === 1,
    observedAt: row.observed_at,
    createdAt: row.created_at,
  }
}

function toBackupEpisode(row: Selectable<EpisodesTable>): BackupEpisode {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    sessionId: row.session_id,
    title: row.title,
    summary: row.summary,
    outcome: row.outcome,
    entities: parseArray(row.entities),
    chunkIds: parseArray<number>(row.chunk_ids),
    messageIds: parseArray<number>(row.message_ids),
    startedAt: row.started_at,
    endedAt: row.ended_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

function toBackupProcedure(row: Selectable<ProceduresTable>): BackupProcedure {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    sessionId: row.session_id,
    name: row.name,
    description: row.description,
    triggerPhrase: row.trigger_phrase,
    steps: parseArray(row.steps),
    stepsText: row.steps_text,
    entities: parseArray(row.entities),
    chunkIds: parseArray<number>(row.chunk_ids),
    messageIds: parseArray<number>(row.message_ids),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

function toDreamRun(row: Selectable<DreamRunsTable>): BackupDreamRun {
  return {
    workspaceId: row.workspace_id,
    status: row.status,
    skipReason: row.skip_reason,
    extractor: row.extractor,
    promptVersion: row.prompt_version,
    chunksCreated: row.chunks_created,
    chunksProcessed: row.chunks_processed,
    edgesUpserted: row.edges_upserted,
    llmCalls: row.llm_calls,
    promptTokens: row.prompt_tokens,
    completionTokens: row.completion_tokens,
    counts: parseObject(row.counts),
    timings: parseObject(row.timings),
    errors: parseArray(row.errors),
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  }
}
