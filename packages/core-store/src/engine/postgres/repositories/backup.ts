import { sql } from 'kysely'
import { StoreError } from '../../../kernel/errors'
import type { BackupRepository, BackupVector } from '../../../repositories/backup'
import type { RepositoryScope } from '../../../repositories/scope'
import { PG_VECTOR_TABLES, parseVectorLiteral } from '../vector-index'

const PAGE = 500

/** `backup.vectors` on PostgreSQL: pgvector columns read as their text form, the ids bound as one array. */
export function postgresBackup(scope: RepositoryScope, portable: BackupRepository): BackupRepository {
  return {
    ...portable,
    async vectors(index, workspaceId, ids) {
      const target = PG_VECTOR_TABLES[index]
      if (!target) throw new StoreError('INVALID_INPUT', `no vector index named ${String(index)}`)
      const out: BackupVector[] = []
      for (let at = 0; at < ids.length; at += PAGE) {
        const { rows } = await sql<{ id: number | string; model: string; text_hash: string; vector: string }>`
          SELECT ${sql.ref(target.idColumn)} AS id, model, text_hash, vector::text AS vector
          FROM ${sql.table(target.table)}
          WHERE workspace_id = ${workspaceId}
            AND ${sql.ref(target.idColumn)} = ANY(${ids.slice(at, at + PAGE)}::${sql.raw(target.idArray)})
          ORDER BY ${sql.ref(target.idColumn)}`.execute(scope.db)
        for (const row of rows) {
          out.push({
            index,
            id: row.id,
            model: row.model,
            textHash: row.text_hash,
            vector: parseVectorLiteral(row.vector),
          })
        }
      }
      return out
    },
  }
}
