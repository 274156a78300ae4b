import { POSTGRES_MIGRATION_0001_INITIAL } from './migration-0001-initial'
import { POSTGRES_MIGRATION_0002_EDGE_VECTORS } from './migration-0002-edge-vectors'
import { POSTGRES_MIGRATION_0003_EDGE_RECENCY_INDEX } from './migration-0003-edge-recency-index'
import { POSTGRES_MIGRATION_0004_PURGES_AND_LEARNED_AT } from './migration-0004-purges-and-learned-at'
import { POSTGRES_MIGRATION_0005_MESSAGE_VECTORS } from './migration-0005-message-vectors'
import { POSTGRES_MIGRATION_0006_GRAPH_GENERATIONS } from './migration-0006-graph-generations'
import { POSTGRES_MIGRATION_0007_QUEUE_TOTALS } from './migration-0007-queue-totals'
import {
  POSTGRES_MIGRATION_0008_FULL_TEXT_EVERY_SCRIPT,
  POSTGRES_MIGRATION_0008_STEPS,
} from './migration-0008-full-text-every-script'
import { POSTGRES_MIGRATION_0009_LLM_CACHE_AGE_INDEX } from './migration-0009-llm-cache-age-index'
import { POSTGRES_MIGRATION_0010_PASSAGES } from './migration-0010-passages'
import { POSTGRES_MIGRATION_0011_TOPIC_INDEX } from './migration-0011-topic-index'
import { POSTGRES_MIGRATION_0012_STANDING_RULES } from './migration-0012-standing-rules'
import { POSTGRES_MIGRATION_0013_RULES_REREAD } from './migration-0013-rules-reread'
import type { PostgresMigration } from './migration-step'

/**
 * PostgreSQL's forward-only migrations: the same versions and names as SQLite's `MIGRATIONS`, one for one
 * (a test keeps them in step). Append, never change what one leaves behind (migration 8 was split into SQL
 * and per-table steps that leave the same schema).
 */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  { version: 1, name: 'initial', sql: POSTGRES_MIGRATION_0001_INITIAL },
  { version: 2, name: 'edge-vectors', sql: POSTGRES_MIGRATION_0002_EDGE_VECTORS },
  { version: 3, name: 'edge-recency-index', sql: POSTGRES_MIGRATION_0003_EDGE_RECENCY_INDEX },
  { version: 4, name: 'purges-and-learned-at', sql: POSTGRES_MIGRATION_0004_PURGES_AND_LEARNED_AT },
  { version: 5, name: 'message-vectors', sql: POSTGRES_MIGRATION_0005_MESSAGE_VECTORS },
  { version: 6, name: 'graph-generations', sql: POSTGRES_MIGRATION_0006_GRAPH_GENERATIONS },
  { version: 7, name: 'queue-totals', sql: POSTGRES_MIGRATION_0007_QUEUE_TOTALS },
  {
    version: 8,
    name: 'full-text-every-script',
    sql: POSTGRES_MIGRATION_0008_FULL_TEXT_EVERY_SCRIPT,
    steps: POSTGRES_MIGRATION_0008_STEPS,
  },
  { version: 9, name: 'llm-cache-age-index', sql: POSTGRES_MIGRATION_0009_LLM_CACHE_AGE_INDEX },
  { version: 10, name: 'passages', sql: POSTGRES_MIGRATION_0010_PASSAGES },
  { version: 11, name: 'topic-index', sql: POSTGRES_MIGRATION_0011_TOPIC_INDEX },
  { version: 12, name: 'standing-rules', sql: POSTGRES_MIGRATION_0012_STANDING_RULES },
  { version: 13, name: 'rules-reread', sql: POSTGRES_MIGRATION_0013_RULES_REREAD },
]

/** The schema version this code writes (the same as SQLite's); a newer database is refused. */
export const POSTGRES_SCHEMA_VERSION = POSTGRES_MIGRATIONS[POSTGRES_MIGRATIONS.length - 1]?.version ?? 0
