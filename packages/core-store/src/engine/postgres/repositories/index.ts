import type { RepositoryOverrides } from '../../../store/repository-overrides'
import { postgresBackup } from './backup'
import { postgresChunks } from './chunks'

/**
 * Repository methods whose portable implementation is SQLite-specific (raw cached statements, FTS5,
 * `INSERT OR IGNORE`, `lastInsertRowid`), replaced on PostgreSQL. Everything else runs the portable
 * kysely-builder code unchanged.
 */
export const POSTGRES_REPOSITORY_OVERRIDES: RepositoryOverrides = {
  chunks: postgresChunks,
  backup: postgresBackup,
}
