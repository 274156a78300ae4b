import { type Kysely, sql } from 'kysely'
import type { HyMemDatabase } from '../schema/tables'
import { checkFullTextQuery, queryStopWords, relativeScores } from '../search/full-text-query'
import type { FullTextHit, FullTextSearch } from '../search/types'
import { StoreError } from '../store/errors'
import { buildTsquery } from './tsquery'

/** The text search configuration of the generated `fts` columns (migration 1). */
export const TEXT_SEARCH_CONFIG = 'hymem_english'

/**
 * Full-text search over the generated `fts` tsvector columns (GIN-indexed), filtered by workspace and
 * optionally sessions or the author. `ts_rank` with length normalisation (flag 1, like BM25's document-length
 * term) is divided by the best hit's, into (0, 1].
 */
export function createPostgresFullTextSearch(db: Kysely<HyMemDatabase>): FullTextSearch {
  return {
    async search(table, text, query) {
      checkFullTextQuery(table, text, query)
      const stopWords = queryStopWords(query)
      const tsquery = buildTsquery(text, {
        mode: query.match === 'all' ? 'and' : 'or',
        ...(stopWords ? { stopWords } : {}),
        ...(query.prefixLastWord ? { prefixLastTerm: true } : {}),
      })
      if (tsquery === null || query.sessionIds?.length === 0) return []
      const filters = [sql`c.workspace_id = ${query.workspaceId}`]
      if (query.sessionIds) filters.push(sql`c.session_id = ANY(${[...query.sessionIds]}::text[])`)
      if (query.peerId !== undefined) filters.push(sql`c.peer_id = ${query.peerId}`)
      try {
        const result = await sql<FullTextHit>`
          SELECT c.id AS id, ts_rank(c.fts, q, 1) AS score
          FROM ${sql.table(table)} AS c, to_tsquery(${TEXT_SEARCH_CONFIG}::regconfig, ${tsquery}) AS q
          WHERE c.fts @@ q AND ${sql.join(filters, sql` AND `)}
          ORDER BY score DESC, c.id
          LIMIT ${query.limit}`.execute(db)
        return relativeScores(result.rows)
      } catch (error) {
        if (error instanceof StoreError) throw error
        throw new StoreError(
          'INVALID_INPUT',
          `full-text search failed for ${JSON.stringify(text)}: ${(error as Error).message}`,
          { cause: error },
        )
      }
    },
  }
}
