import type { RepositoryOverrides } from '../../../store/repository-overrides'
import { sqliteEdges } from './edges'
import { sqliteEvidence } from './evidence'

/**
 * Repository methods SQLite runs as raw cached statements instead of the portable kysely-builder code: the
 * graph writes and lookups extraction makes for every triple.
 */
export const SQLITE_REPOSITORY_OVERRIDES: RepositoryOverrides = {
  edges: sqliteEdges,
  evidence: sqliteEvidence,
}
