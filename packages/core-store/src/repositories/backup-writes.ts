import type { BackupRepository } from './backup'
import { requireId } from './json'
import type { RepositoryScope } from './scope'

/** The import half of the backup repository: rows written back only where absent. */
export function backupWrites(
  scope: RepositoryScope,
): Omit<
  BackupRepository,
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
> {
  const { db } = scope

  return {
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
                // PostgreSQL's processed_chunks carries the workspace (for sharding); SQLite's does not.
                ...(scope.engine.processedChunksHaveWorkspace
                  ? ({ workspace_id: chunk.workspaceId } as object)
                  : {}),
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
