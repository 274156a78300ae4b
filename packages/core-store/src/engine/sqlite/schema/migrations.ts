import type { Migration } from '../../migrations'
import type { FullTextIndexed } from '../full-text-fill'
import { MIGRATION_0001_INITIAL } from './migration-0001-initial'
import { MIGRATION_0002_EDGE_VECTORS } from './migration-0002-edge-vectors'
import { MIGRATION_0003_EDGE_RECENCY_INDEX } from './migration-0003-edge-recency-index'
import { MIGRATION_0004_PURGES_AND_LEARNED_AT } from './migration-0004-purges-and-learned-at'
import { MIGRATION_0005_MESSAGE_VECTORS } from './migration-0005-message-vectors'
import { MIGRATION_0006_GRAPH_GENERATIONS } from './migration-0006-graph-generations'
import { MIGRATION_0007_QUEUE_TOTALS } from './migration-0007-queue-totals'
import {
  MIGRATION_0008_FULL_TEXT_EVERY_SCRIPT,
  MIGRATION_0008_INDEXED,
} from './migration-0008-full-text-every-script'
import { MIGRATION_0009_LLM_CACHE_AGE_INDEX } from './migration-0009-llm-cache-age-index'
import { MIGRATION_0010_PASSAGES } from './migration-0010-passages'
import { MIGRATION_0011_TOPIC_INDEX } from './migration-0011-topic-index'
import { MIGRATION_0012_STANDING_RULES } from './migration-0012-standing-rules'
import { MIGRATION_0013_RULES_REREAD } from './migration-0013-rules-reread'

/** A SQLite migration step: an FTS5 table filled from the rows of its content table. */
export type SqliteMigration = Migration<FullTextIndexed>

/**
 * Forward-only migrations, applied in order, each in its own transaction. Append, never change what one
 * leaves behind (migration 8 was split into SQL and batched steps that leave the same tables and rows).
 */
export const MIGRATIONS: readonly SqliteMigration[] = [
  { version: 1, name: 'initial', sql: MIGRATION_0001_INITIAL },
  { version: 2, name: 'edge-vectors', sql: MIGRATION_0002_EDGE_VECTORS },
  { version: 3, name: 'edge-recency-index', sql: MIGRATION_0003_EDGE_RECENCY_INDEX },
  { version: 4, name: 'purges-and-learned-at', sql: MIGRATION_0004_PURGES_AND_LEARNED_AT },
  { version: 5, name: 'message-vectors', sql: MIGRATION_0005_MESSAGE_VECTORS },
  { version: 6, name: 'graph-generations', sql: MIGRATION_0006_GRAPH_GENERATIONS },
  { version: 7, name: 'queue-totals', sql: MIGRATION_0007_QUEUE_TOTALS },
  {
    version: 8,
    name: 'full-text-every-script',
    sql: MIGRATION_0008_FULL_TEXT_EVERY_SCRIPT,
    steps: MIGRATION_0008_INDEXED,
  },
  { version: 9, name: 'llm-cache-age-index', sql: MIGRATION_0009_LLM_CACHE_AGE_INDEX },
  { version: 10, name: 'passages', sql: MIGRATION_0010_PASSAGES },
  { version: 11, name: 'topic-index', sql: MIGRATION_0011_TOPIC_INDEX },
  { version: 12, name: 'standing-rules', sql: MIGRATION_0012_STANDING_RULES },
  { version: 13, name: 'rules-reread', sql: MIGRATION_0013_RULES_REREAD },
]

/** The schema version this code writes; a file with a higher `user_version` is refused. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0
