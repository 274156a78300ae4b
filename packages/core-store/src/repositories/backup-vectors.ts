import { sql } from 'kysely'
import { StoreError } from '../kernel/errors'
import type { VectorIndexName } from '../search/types'
import { blobVector } from '../search/vector-math'
import type { BackupRepository } from './backup'
import type { BackupVector } from './backup-values'
import type { RepositoryScope } from './scope'

const PAGE = 500

const VECTOR_TABLES: Record<VectorIndexName, { readonly table: string; readonly id: string }> = {
  chunks: { table: 'chunk_embeddings', id: 'chunk_id' },
  edges: { table: 'edge_vectors', id: 'edge_id' },
  episodes: { table: 'episode_embeddings', id: 'episode_id' },
  notes: { table: 'note_embeddings', id: 'note_id' },
  messages: { table: 'message_embeddings', id: 'message_id' },
  passages: { table: 'passage_embeddings', id: 'passage_id' },
}

/** `backup.vectors` on SQLite: one statement a page of ids, which travel as a JSON array. */
export function sqliteBackupVectors({ db }: RepositoryScope): BackupRepository['vectors'] {
  return async (index, workspaceId, ids) => {
    const source = VECTOR_TABLES[index]
    if (!source) throw new StoreError('INVALID_INPUT', `no vector index named ${String(index)}`)
    const out: BackupVector[] = []
    for (let at = 0; at < ids.length; at += PAGE) {
      const { rows } = await sql<{
        id: number | string
        model: string
        text_hash: string
        vector: Uint8Array
      }>`
        SELECT ${sql.ref(source.id)} AS id, model, text_hash, vector FROM ${sql.table(source.table)}
        WHERE workspace_id = ${workspaceId}
          AND ${sql.ref(source.id)} IN (SELECT value FROM json_each(${JSON.stringify(ids.slice(at, at + PAGE))}))
        ORDER BY ${sql.ref(source.id)}`.execute(db)
      for (const row of rows) {
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
  }
}

/** A stored vector row as a backup hands it out, its vector decoded by the engine that read it. */
export function _backupVector(
  index: VectorIndexName,
  row: { readonly id: number | string; readonly model: string; readonly text_hash: string },
  vector: Float32Array,
): BackupVector {
  return { index, id: row.id, model: row.model, textHash: row.text_hash, vector }
}
