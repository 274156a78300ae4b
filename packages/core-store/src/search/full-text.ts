import { type Kysely, sql } from 'kysely'
import type { HyMemDatabase } from '../schema/tables'
import { StoreError } from '../store/errors'
import type { FullTextHit, FullTextQuery, FullTextSearch, FullTextTable } from './types'

interface FullTextSource {
  /** The FTS5 table. */
  readonly fts: string
  /** Content table, its key column returned as the hit id, and the column the FTS rowid joins. */
  readonly table: string
  readonly key: string
  readonly rowid: string
}

const SOURCES: Record<FullTextTable, FullTextSource> = {
  messages: { fts: 'messages_fts', table: 'messages', key: 'id', rowid: 'id' },
  chunks: { fts: 'chunks_fts', table: 'chunks', key: 'id', rowid: 'id' },
  episodes: { fts: 'episodes_fts', table: 'episodes', key: 'id', rowid: 'rowid' },
  procedures: { fts: 'procedures_fts', table: 'procedures', key: 'id', rowid: 'rowid' },
  notes: { fts: 'notes_fts', table: 'notes', key: 'id', rowid: 'rowid' },
}

/**
 * FTS5 search with BM25 ranking, joined back to the content table so results are filtered by workspace
 * (and optionally sessions or, for messages, the author). Scores are `-bm25`, higher is better.
 *
 * @example
 * const hits = await createFullTextSearch(store.db).search('messages', buildMatchQuery('postgres'), {
 *   workspaceId: 'default',
 *   limit: 10,
 * })
 */
export function createFullTextSearch(db: Kysely<HyMemDatabase>): FullTextSearch {
  return {
    async search(table, match, query) {
      const source = SOURCES[table]
      if (!source) throw new StoreError('INVALID_INPUT', `no full-text index for table ${String(table)}`)
      checkQuery(table, query)
      if (match === null || match.trim() === '') return []
      try {
        const { rows } = await searchSql(source, match, query).execute(db)
        return rows
      } catch (error) {
        throw new StoreError(
          'INVALID_INPUT',
          `invalid full-text expression ${JSON.stringify(match)}: ${(error as Error).message}; build it with buildMatchQuery`,
          { cause: error },
        )
      }
    },
  }
}

function checkQuery(table: FullTextTable, query: FullTextQuery): void {
  if (typeof query.workspaceId !== 'string' || query.workspaceId === '') {
    throw new StoreError('INVALID_INPUT', 'full-text search needs a workspaceId')
  }
  if (!Number.isInteger(query.limit) || query.limit < 1) {
    throw new StoreError('INVALID_INPUT', 'full-text search limit must be an integer ≥ 1')
  }
  if (query.peerId !== undefined && table !== 'messages') {
    throw new StoreError('INVALID_INPUT', `peerId filters messages only, not ${table}`)
  }
}

function searchSql(source: FullTextSource, match: string, query: FullTextQuery) {
  const fts = sql.table(source.fts)
  const content = sql.table(source.table)
  const filters = [sql`c.workspace_id = ${query.workspaceId}`]
  if (query.sessionIds !== undefined) {
    if (query.sessionIds.length === 0) filters.push(sql`0`)
    else filters.push(sql`c.session_id IN (${sql.join(query.sessionIds)})`)
  }
  if (query.peerId !== undefined) filters.push(sql`c.peer_id = ${query.peerId}`)
  return sql<FullTextHit>`
    SELECT c.${sql.ref(source.key)} AS id, -bm25(${fts}) AS score
    FROM ${fts} JOIN ${content} AS c ON c.${sql.ref(source.rowid)} = ${fts}.rowid
    WHERE ${fts} MATCH ${match} AND ${sql.join(filters, sql` AND `)}
    ORDER BY bm25(${fts}) LIMIT ${query.limit}`
}
