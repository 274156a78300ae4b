import { type Kysely, type Selectable, sql } from 'kysely'
import type {
  BehavioralMarkersTable,
  DreamRunsTable,
  EpisodesTable,
  HyMemDatabase,
  ProceduresTable,
} from '../schema/tables'
import type { VectorIndexName } from '../search/types'
import { blobVector } from '../search/vector-math'
import { StoreError } from '../store/errors'
import type {
  BackupChunk,
  BackupDreamRun,
  BackupEntityType,
  BackupEpisode,
  BackupFeedback,
  BackupMarker,
  BackupPeerCard,
  BackupProcedure,
  BackupScope,
  BackupVector,
} from './backup-values'
import { parseArray, parseObject, requireId } from './json'
import type { RepositoryScope } from './scope'

export type * from './backup-values'

/**
 * What a backup needs beyond the other repositories: every row of the derived tables (chunks with their
 * processing marks and mentions, entity types, markers, episodes, procedures, extraction feedback, scopes,
 * peer cards, dream runs, stored vectors) read a page at a time, and written back only where absent, so a
 * restore into a non-empty memory adds nothing twice and can be run again.
 */
export interface BackupRepository {
  chunks(workspaceId: string): AsyncIterable<BackupChunk>
  entityTypes(workspaceId: string): Promise<BackupEntityType[]>
  /** Markers by id; `chunkId` is the store's own. */
  markers(workspaceId: string): AsyncIterable<BackupMarker>
  episodes(workspaceId: string): AsyncIterable<BackupEpisode>
  procedures(workspaceId: string): AsyncIterable<BackupProcedure>
  feedback(workspaceId: string): Promise<BackupFeedback[]>
  scopes(workspaceId: string): Promise<BackupScope[]>
  peerCards(workspaceId: string): Promise<BackupPeerCard[]>
  /** Dream runs, oldest first. */
  dreamRuns(workspaceId: string): Promise<BackupDreamRun[]>
  /** The stored vectors of these rows of the workspace (rows without one are absent). */
  vectors(
    index: VectorIndexName,
    workspaceId: string,
    ids: readonly (number | string)[],
  ): Promise<BackupVector[]>

  /**
   * Stores a chunk (its session must exist) unless one over the same messages exists, then adds its
   * missing processing marks and mentions. Returns the chunk's id in this store and whether it was new.
   */
  insertChunkIfAbsent(chunk: Omit<BackupChunk, 'id'>): Promise<{ id: number; inserted: boolean }>
  insertEntityTypeIfAbsent(entityType: BackupEntityType): Promise<boolean>
  insertMarkerIfAbsent(marker: BackupMarker): Promise<boolean>
  insertEpisodeIfAbsent(episode: BackupEpisode): Promise<boolean>
  insertProcedureIfAbsent(procedure: BackupProcedure): Promise<boolean>
  insertFeedbackIfAbsent(feedback: BackupFeedback): Promise<boolean>
  /** Stores a scope unless it exists, and adds its missing session links either way. */
  insertScopeIfAbsent(scope: BackupScope): Promise<boolean>
  insertPeerCardIfAbsent(card: BackupPeerCard): Promise<boolean>
  /** A dream run is the same run when its workspace, times, status, extractor, counts and timings match. */
  insertDreamRunIfAbsent(run: BackupDreamRun): Promise<boolean>
}

const PAGE = 500

const VECTOR_TABLES = {
  chunks: { table: 'chunk_embeddings', id: 'chunk_id' },
  edges: { table: 'edge_vectors', id: 'edge_id' },
  episodes: { table: 'episode_embeddings', id: 'episode_id' },
  notes: { table: 'note_embeddings', id: 'note_id' },
  messages: { table: 'message_embeddings', id: 'message_id' },
} as const

export function createBackupRepository(scope: RepositoryScope): BackupRepository {
  const { db } = scope

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
          db.selectFrom('processed_chunks').selectAll().where('chunk_id', 'in', ids).execute(),
          db
            .selectFrom('entity_mentions')
            .select(['chunk_id', 'entity'])
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

    async insertChunkIfAbsent(chunk) {
      requireId(chunk.workspaceId, 'workspace id')
      requireId(chunk.sessionId, 'session id')
      return scope.write(async (tx) => {
        const span = () =>
          tx
            .selectFrom('chunks')
            .select('id')
            .where('workspace_id', '=', chunk.workspaceId)
            .where('session_id', '=', chunk.sessionId)
            .where('first_message_id', '=', chunk.firstMessageId)
            .where('last_message_id', '=', chunk.lastMessageId)
            .executeTakeFirst()
        const existing = await span()
        let id = existing?.id
        if (id === undefined) {
          const row = await tx
            .insertInto('chunks')
            .values({
              workspace_id: chunk.workspaceId,
              session_id: chunk.sessionId,
              text: chunk.text,
              salience_reason: chunk.salienceReason,
              message_ids: JSON.stringify(chunk.messageIds),
              first_message_id: chunk.firstMessageId,
              last_message_id: chunk.lastMessageId,
              occurred_at: chunk.occurredAt,
              created_at: chunk.createdAt,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
          id = row.id
        }
        const chunkId = id
        if (chunk.processed.length > 0) {
          await tx
            .insertInto('processed_chunks')
            .values(
              chunk.processed.map((mark) => ({
                chunk_id: chunkId,
                prompt_version: mark.promptVersion,
                extractor: mark.extractor,
                processed_at: mark.processedAt,
              })),
            )
            .onConflict((oc) => oc.doNothing())
            .execute()
        }
        if (chunk.mentions.length > 0) {
          await tx
            .insertInto('entity_mentions')
            .values(
              chunk.mentions.map((entity) => ({
                workspace_id: chunk.workspaceId,
                chunk_id: chunkId,
                entity,
              })),
            )
            .onConflict((oc) => oc.doNothing())
            .execute()
        }
        return { id: chunkId, inserted: existing === undefined }
      })
    },
    async insertEntityTypeIfAbsent(t) {
      requireId(t.workspaceId, 'workspace id')
      const result = await db
        .insertInto('entity_types')
        .values({
          workspace_id: t.workspaceId,
          entity: t.entity,
          type: t.type,
          evidence: t.evidence,
          updated_at: t.updatedAt,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async insertMarkerIfAbsent(m) {
      requireId(m.workspaceId, 'workspace id')
      return scope.write(async (tx) => {
        if (m.chunkId === null) {
          const found = await tx
            .selectFrom('behavioral_markers')
            .select('id')
            .where('workspace_id', '=', m.workspaceId)
            .where('chunk_id', 'is', null)
            .where('kind', '=', m.kind)
            .where('statement', '=', m.statement)
            .where('observed_at', '=', m.observedAt)
            .executeTakeFirst()
          if (found) return false
        }
        const result = await tx
          .insertInto('behavioral_markers')
          .values({
            workspace_id: m.workspaceId,
            peer_id: m.peerId,
            chunk_id: m.chunkId,
            kind: m.kind,
            statement: m.statement,
            consolidated: m.consolidated ? 1 : 0,
            observed_at: m.observedAt,
            created_at: m.createdAt,
          })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst()
        return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
      })
    },
    async insertEpisodeIfAbsent(e) {
      requireId(e.id, 'episode id')
      const result = await db
        .insertInto('episodes')
        .values({
          id: e.id,
          workspace_id: e.workspaceId,
          session_id: e.sessionId,
          title: e.title,
          summary: e.summary,
          outcome: e.outcome,
          entities: JSON.stringify(e.entities),
          chunk_ids: JSON.stringify(e.chunkIds),
          message_ids: JSON.stringify(e.messageIds),
          started_at: e.startedAt,
          ended_at: e.endedAt,
          created_at: e.createdAt,
          updated_at: e.updatedAt,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async insertProcedureIfAbsent(p) {
      requireId(p.id, 'procedure id')
      const result = await db
        .insertInto('procedures')
        .values({
          id: p.id,
          workspace_id: p.workspaceId,
          session_id: p.sessionId,
          name: p.name,
          description: p.description,
          trigger_phrase: p.triggerPhrase,
          steps: JSON.stringify(p.steps),
          steps_text: p.stepsText,
          entities: JSON.stringify(p.entities),
          chunk_ids: JSON.stringify(p.chunkIds),
          message_ids: JSON.stringify(p.messageIds),
          created_at: p.createdAt,
          updated_at: p.updatedAt,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async insertFeedbackIfAbsent(f) {
      requireId(f.workspaceId, 'workspace id')
      return scope.write(async (tx) => {
        const found = await tx
          .selectFrom('extraction_feedback')
          .select('id')
          .where('workspace_id', '=', f.workspaceId)
          .where('subject', '=', f.subject)
          .where('predicate', '=', f.predicate)
          .where('object', '=', f.object)
          .where('created_at', '=', f.createdAt)
          .where('chunk_text', f.chunkText === null ? 'is' : '=', f.chunkText)
          .where('reason', f.reason === null ? 'is' : '=', f.reason)
          .executeTakeFirst()
        if (found) return false
        await tx
          .insertInto('extraction_feedback')
          .values({
            workspace_id: f.workspaceId,
            subject: f.subject,
            predicate: f.predicate,
            object: f.object,
            chunk_text: f.chunkText,
            reason: f.reason,
            created_at: f.createdAt,
          })
          .execute()
        return true
      })
    },
    async insertScopeIfAbsent(s) {
      requireId(s.workspaceId, 'workspace id')
      requireId(s.id, 'scope id')
      return scope.write(async (tx) => {
        const result = await tx
          .insertInto('scopes')
          .values({
            workspace_id: s.workspaceId,
            id: s.id,
            metadata: JSON.stringify(s.metadata),
            created_at: s.createdAt,
          })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst()
        if (s.sessions.length > 0) {
          await tx
            .insertInto('scope_sessions')
            .values(
              s.sessions.map((link) => ({
                workspace_id: s.workspaceId,
                scope_id: s.id,
                session_id: link.sessionId,
                joined_at: link.joinedAt,
              })),
            )
            .onConflict((oc) => oc.doNothing())
            .execute()
        }
        return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
      })
    },
    async insertPeerCardIfAbsent(card) {
      requireId(card.workspaceId, 'workspace id')
      const result = await db
        .insertInto('peer_cards')
        .values({
          workspace_id: card.workspaceId,
          observer_id: card.observerId,
          observed_id: card.observedId,
          card: JSON.stringify(card.card),
          updated_at: card.updatedAt,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async insertDreamRunIfAbsent(run) {
      requireId(run.workspaceId, 'workspace id')
      return scope.write(async (tx) => {
        const found = await tx
          .selectFrom('dream_runs')
          .select('id')
          .where('workspace_id', '=', run.workspaceId)
          .where('started_at', '=', run.startedAt)
          .where('status', '=', run.status)
          .where('extractor', run.extractor === null ? 'is' : '=', run.extractor)
          .where('finished_at', run.finishedAt === null ? 'is' : '=', run.finishedAt)
          .where('counts', '=', JSON.stringify(run.counts))
          .where('timings', '=', JSON.stringify(run.timings))
          .executeTakeFirst()
        if (found) return false
        await tx
          .insertInto('dream_runs')
          .values({
            workspace_id: run.workspaceId,
            status: run.status,
            skip_reason: run.skipReason,
            extractor: run.extractor,
            prompt_version: run.promptVersion,
            chunks_created: run.chunksCreated,
            chunks_processed: run.chunksProcessed,
            edges_upserted: run.edgesUpserted,
            llm_calls: run.llmCalls,
            prompt_tokens: run.promptTokens,
            completion_tokens: run.completionTokens,
            counts: JSON.stringify(run.counts),
            timings: JSON.stringify(run.timings),
            errors: JSON.stringify(run.errors),
            started_at: run.startedAt,
            finished_at: run.finishedAt,
          })
          .execute()
        return true
      })
    },
  }
}

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
