import { type Kysely, sql } from 'kysely'
import { StoreError } from '../../kernel/errors'
import type { HyMemDatabase } from '../../kernel/tables'
import { checkFullTextQuery, queryStopWords, relativeScores } from '../../search/full-text-query'
import type { FullTextHit, FullTextSearch, FullTextTable } from '../../search/types'
import type { TermFrequencyCache } from './term-frequency-cache'
import { type TermWeights, termWeights } from './term-weights'
import { type TsqueryTerm, tsqueryTerms } from './tsquery'

/** The text search configuration of the generated `fts` columns (migration 1). */
export const TEXT_SEARCH_CONFIG = 'hymem_english'

/** Document frequencies are counted up to this many rows per term (a GIN scan stopped early): beyond, common. */
const FREQUENCY_CAP = 1000
/** The workspace's rows are counted up to this many; beyond, the table's planner estimate stands in. */
const TOTAL_CAP = 5_000

/**
 * Full-text search over the generated `fts` tsvector columns (GIN-indexed), filtered by workspace and
 * optionally sessions or the author, ranked like FTS5's BM25: `ts_rank` (length-normalised, flag 1, a saturating
 * term frequency) with each query term weighted by its inverse document frequency in the workspace's table
 * (`termWeights`, through `ts_rank`'s label weights on a relabelled vector), divided by the best hit's, into
 * (0, 1]. Without the weights a row matching two common words outranks the one matching the rare word a
 * question is about.
 *
 * Two statements: the terms' document frequencies (each a GIN-index count stopped at `FREQUENCY_CAP` rows, and
 * the workspace's row count stopped at `TOTAL_CAP`), then the ranked search. The counts are reused from
 * `frequencies` while fresh, so a query whose words were all counted lately runs the ranked search alone.
 */
export function createPostgresFullTextSearch(
  db: Kysely<HyMemDatabase>,
  frequencies: TermFrequencyCache,
): FullTextSearch {
  return {
    async search(table, text, query) {
      checkFullTextQuery(table, text, query)
      const stopWords = queryStopWords(query)
      const terms = tsqueryTerms(text, {
        ...(stopWords ? { stopWords } : {}),
        ...(query.prefixLastWord ? { prefixLastTerm: true } : {}),
      })
      if (terms === null || query.sessionIds?.length === 0) return []
      const tsquery = terms.map((term) => term.operand).join(query.match === 'all' ? ' & ' : ' | ')
      const filters = [sql`c.workspace_id = ${query.workspaceId}`]
      if (query.sessionIds) filters.push(sql`c.session_id = ANY(${[...query.sessionIds]}::text[])`)
      if (query.peerId !== undefined) filters.push(sql`c.peer_id = ${query.peerId}`)
      try {
        const { weights, labelled } = await weightsOf(db, frequencies, table, query.workspaceId, terms)
        const result = await sql<FullTextHit>`
          SELECT c.id AS id, ts_rank(${weights}::float4[],
            setweight(setweight(setweight(c.fts, 'A', ${labelled.A}::text[]), 'B', ${labelled.B}::text[]),
              'C', ${labelled.C}::text[]),
            q, 1) AS score
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

/** The terms' weights from their document frequencies among the workspace's rows of the table. */
async function weightsOf(
  db: Kysely<HyMemDatabase>,
  frequencies: TermFrequencyCache,
  table: FullTextTable,
  workspaceId: string,
  terms: readonly TsqueryTerm[],
): Promise<TermWeights> {
  const uncounted = terms.filter((term) => !frequencies.term(table, workspaceId, term.operand))
  if (uncounted.length > 0 || frequencies.total(table, workspaceId) === undefined)
    await countTerms(db, frequencies, table, workspaceId, uncounted.length > 0 ? uncounted : terms)
  return termWeights(
    terms.map((term) => frequencies.term(table, workspaceId, term.operand) ?? { lexemes: [], documents: 0 }),
    frequencies.total(table, workspaceId) ?? 0,
  )
}

/** Counts the terms' document frequencies and the workspace's rows of the table into `frequencies`. */
async function countTerms(
  db: Kysely<HyMemDatabase>,
  frequencies: TermFrequencyCache,
  table: FullTextTable,
  workspaceId: string,
  terms: readonly TsqueryTerm[],
): Promise<void> {
  const source = sql.table(table)
  const result = await sql<{
    operand: string
    lexemes: string[]
    documents: number
    rows: number
    estimate: number | null
  }>`
    SELECT u.operand AS operand, tsvector_to_array(to_tsvector(${TEXT_SEARCH_CONFIG}::regconfig, u.word)) AS lexemes,
      (SELECT count(*) FROM (
        SELECT 1 FROM ${source} AS c
        WHERE c.workspace_id = ${workspaceId} AND c.fts @@ to_tsquery(${TEXT_SEARCH_CONFIG}::regconfig, u.operand)
        LIMIT ${FREQUENCY_CAP}) AS hits)::int AS documents,
      (SELECT count(*) FROM (
        SELECT 1 FROM ${source} AS c WHERE c.workspace_id = ${workspaceId} LIMIT ${TOTAL_CAP}) AS all_rows)::int AS rows,
      (SELECT reltuples FROM pg_class WHERE oid = to_regclass(${table}))::float8 AS estimate
    FROM unnest(${terms.map((t) => t.word)}::text[], ${terms.map((t) => t.operand)}::text[]) AS u(word, operand)
  `.execute(db)
  const first = result.rows[0]
  const counted = Number(first?.rows ?? 0)
  const total = counted < TOTAL_CAP ? counted : Math.max(counted, Number(first?.estimate ?? 0))
  frequencies.rememberTotal(table, workspaceId, total)
  for (const row of result.rows)
    frequencies.rememberTerm(table, workspaceId, row.operand, {
      lexemes: row.lexemes,
      documents: Number(row.documents),
    })
}
