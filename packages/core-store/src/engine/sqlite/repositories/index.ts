import type { RepositoryOverrides } from '../../../store/repository-overrides'
import type { StatementCache } from '../../types'
import { sqliteEdges } from './edges'
import { sqliteEvidence } from './evidence'
import { sqliteMessages } from './messages'

/**
 * Repository methods SQLite runs as raw statements from the store's cache instead of the portable
 * kysely-builder code: the message batches capture writes and the graph writes and lookups extraction makes
 * for every triple.
 */
export function sqliteRepositoryOverrides(statements: StatementCache): RepositoryOverrides {
  return {
    messages: sqliteMessages(statements),
    edges: sqliteEdges(statements),
    evidence: sqliteEvidence(statements),
  }
}
