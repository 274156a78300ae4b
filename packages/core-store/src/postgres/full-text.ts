import { type Kysely, sql } from 'kysely'
import type { HyMemDatabase } from '../schema/tables'
import { checkFullTextQuery, queryStopWords, relativeScores } from '../search/full-text-query'
import type { FullTextHit, FullTextSearch } from '../search/types'
import { StoreError } from '../store/errors'
import { tsqueryOperands } from './tsquery'

/** The text search configuration of the generated `fts` columns (migration 1). */
export const TEXT_SEARCH_CONFIG = 'hymem_english'

/**
 * Full-text search over the generated `fts` tsvector columns (GIN-indexed), filtered by workspace and
 * optionally sessions or the author, ranked like FTS5's BM25: each query term's `ts_rank` (length-normalised,
 * flag 1, a saturating term frequency) weighted by the term's inverse document frequency in the workspace's
 * table, `ln((N − n + 0.5) / (n + 0.5))` floored at 1e-6 as FTS5 does, summed over the terms, and divided by the
 * best hit's, into (0, 1]. Without the weights a row matching two common words outranks the one matching the
 * rare word a question is about.
 *
 * One statement: the rows matching any term (the GIN index) give each term's document frequency as a window
 * count, so the extra cost is one `ts_rank` per matched row and term plus the workspace's row count (an index
 * scan on the `(workspace_id, …)` index).
 */
export function createPostgresFullTextSearch(db: Kysely<HyMemDatabase>): FullTextSearch {
  return {
    async search(table, text, query) {
      checkFullTextQuery(table, text, query)
      const stopWords = queryStopWords(query)
      const operands = tsqueryOperands(text, {
        ...(stopWords ? { stopWords } : {}),
        ...(query.prefixLastWord ? { prefixLastTerm: true } : {}),
      })
      if (operands === null || query.sessionIds?.length === 0) return []
      const wanted = [sql`TRUE`]
      if (query.match === 'all') {
        wanted.push(sql`c.fts @@ to_tsquery(${TEXT_SEARCH_CONFIG}::regconfig, ${operands.join(' & ')})`)
      }
      if (query.sessionIds) wanted.push(sql`c.session_id = ANY(${[...query.sessionIds]}::text[])`)
      if (query.peerId !== undefined) wanted.push(sql`c.peer_id = ${query.peerId}`)
      const source = sql.table(table)
      try {
        const result = await sql<FullTextHit>`
          WITH terms AS (
            SELECT q, row_number() OVER () AS term FROM (
              SELECT DISTINCT ON (q::text) q
              FROM unnest(${operands}::text[]) AS operand,
                to_tsquery(${TEXT_SEARCH_CONFIG}::regconfig, operand) AS q
            ) AS distinct_terms
          ),
          total AS (SELECT count(*)::float8 AS n FROM ${source} WHERE workspace_id = ${query.workspaceId}),
          matches AS (
            SELECT c.id, ${sql.join(wanted, sql` AND `)} AS wanted, ts_rank(c.fts, t.q, 1) AS rank,
              count(*) OVER (PARTITION BY t.term)::float8 AS df
            FROM ${source} AS c JOIN terms AS t ON c.fts @@ t.q
            WHERE c.workspace_id = ${query.workspaceId}
              AND c.fts @@ to_tsquery(${TEXT_SEARCH_CONFIG}::regconfig, ${operands.join(' | ')})
          )
          SELECT m.id AS id, sum(greatest(ln((total.n - m.df + 0.5) / (m.df + 0.5)), 1e-6) * m.rank) AS score
          FROM matches AS m, total
          WHERE m.wanted
          GROUP BY m.id
          ORDER BY score DESC, m.id
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
