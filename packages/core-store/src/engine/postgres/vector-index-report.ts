import { sql } from 'kysely'
import { StoreError } from '../../kernel/errors'
import { builderOf } from '../../store/builder'
import type { Store } from '../../store/types'

/** One pgvector index of HyMem's schema. */
export interface PostgresVectorIndexInfo {
  readonly name: string
  readonly table: string
  /** `hnsw` or `ivfflat`. */
  readonly method: string
  /** The dimension the index casts to (`vector(512)`), or null when it does not say. */
  readonly dimensions: number | null
}

/**
 * The pgvector indexes in the store's schema (`hymem doctor` lists them). HyMem builds one HNSW cosine index
 * per vector table on its first vector, for dimensions up to 2,000; wider vectors are searched exactly.
 *
 * @example
 * for (const index of await postgresVectorIndexes(store)) console.log(index.name, index.dimensions)
 */
export async function postgresVectorIndexes(store: Store): Promise<PostgresVectorIndexInfo[]> {
  if (store.backend !== 'postgres')
    throw new StoreError('INVALID_INPUT', 'postgresVectorIndexes needs a PostgreSQL store')
  const { rows } = await sql<{ name: string; table: string; definition: string }>`
    SELECT indexname AS name, tablename AS table, indexdef AS definition FROM pg_indexes
    WHERE schemaname = current_schema() AND (indexdef ILIKE '%USING hnsw%' OR indexdef ILIKE '%USING ivfflat%')
    ORDER BY tablename, indexname`.execute(builderOf(store))
  return rows.map((row) => ({
    name: row.name,
    table: row.table,
    method: /USING (\w+)/i.exec(row.definition)?.[1]?.toLowerCase() ?? 'unknown',
    dimensions: Number(/vector\((\d+)\)/i.exec(row.definition)?.[1]) || null,
  }))
}
