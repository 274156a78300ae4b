import type { RepositoryOverrides } from '../../../store/repository-overrides'
import { postgresBackup } from './backup'
import { postgresChunks } from './chunks'
import { postgresEdges } from './edges'
import { postgresEvidence } from './evidence'
import { postgresMessages } from './messages'

/**
 * Repository methods whose SQLite implementation is engine-specific (raw cached statements, FTS5, `json_each`,
 * `INSERT OR IGNORE`, `lastInsertRowid`), replaced on PostgreSQL. Everything else runs the portable
 * kysely-builder code unchanged.
 */
export const POSTGRES_REPOSITORY_OVERRIDES: RepositoryOverrides = {
  messages: postgresMessages,
  edges: postgresEdges,
  chunks: postgresChunks,
  backup: postgresBackup,
  evidence: postgresEvidence,
}
