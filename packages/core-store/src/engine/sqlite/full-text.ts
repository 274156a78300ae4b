import type { Kysely } from 'kysely'
import { StoreError } from '../../kernel/errors'
import type { HyMemDatabase } from '../../kernel/tables'
import { checkFullTextQuery, queryStopWords, relativeScores } from '../../search/full-text-query'
import type { FullTextHit, FullTextQuery, FullTextSearch, FullTextTable } from '../../search/types'
import { buildMatchQuery } from '../../text/match-query'
import type { RepositoryOptions, StatementCache } from '../types'
import { rebuildSqliteFullText } from './full-text-rebuild'

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
  passages: { fts: 'passages_fts', table: 'passages', key: 'id', rowid: 'id' },
}

/**
 * FTS5 search with BM25 ranking, joined back to the content table so results are filtered by workspace
 * (and optionally sessions or, for messages, the author). The raw text becomes a safe MATCH expression
 * here (`buildMatchQuery`); `-bm25` is divided by the best hit's, into (0, 1]. Runs on the store's cached
 * prepared statements: on the query hot path, building SQL costs more than the lookup.
 *
 * @example
 * const hits = await store.fullText.search('messages', 'postgres', { workspaceId: 'default', limit: 10 })
 */
export function createFullTextSearch(
  db: Kysely<HyMemDatabase>,
  options: RepositoryOptions,
  statements: StatementCache,
): FullTextSearch {
  const scope = options.engine.guards(db, options)
  const sqlCache = new Map<string, string>()
  return {
    async search(table, text, query) {
      checkFullTextQuery(table, text, query)
      const source = SOURCES[table] as FullTextSource
      const match = matchExpression(text, query)
      if (match === null) return []
      if (query.sessionIds?.length === 0) return []
      const sessions = query.sessionIds?.length ?? 0
      const hasPeer = query.peerId !== undefined
      const key = `${table}:${sessions}:${hasPeer}`
      let statementText = sqlCache.get(key)
      if (statementText === undefined) {
        statementText = searchSql(source, sessions, hasPeer)
        sqlCache.set(key, statementText)
      }
      const params: unknown[] = [match, query.workspaceId, ...(query.sessionIds ?? [])]
      if (hasPeer) params.push(query.peerId)
      params.push(query.limit)
      const statement = statementText
      return scope.read(() => {
        try {
          const rows = statements.prepare(statement).all(params) as FullTextHit[]
          return relativeScores(rows)
        } catch (error) {
          if (error instanceof StoreError) throw error
          throw new StoreError(
            'INVALID_INPUT',
            `full-text search failed for ${JSON.stringify(text)}: ${(error as Error).message}`,
            { cause: error },
          )
        }
      })
    },
    rebuild: (onProgress) => rebuildSqliteFullText(scope.write, statements, onProgress),
  }
}

function matchExpression(text: string, query: FullTextQuery): string | null {
  const stopWords = queryStopWords(query)
  return buildMatchQuery(text, {
    mode: query.match === 'all' ? 'and' : 'or',
    ...(stopWords ? { stopWords } : {}),
    ...(query.prefixLastWord ? { prefixLastTerm: true } : {}),
  })
}

/** Parameters in order: match, workspace, each session id, the peer (when filtered), limit. */
function searchSql(source: FullTextSource, sessions: number, hasPeer: boolean): string {
  const filters = ['c.workspace_id = ?']
  if (sessions > 0)
    filters.push(`c.session_id IN (${Array.from({ length: sessions }, () => '?').join(', ')})`)
  if (hasPeer) filters.push('c.peer_id = ?')
  return `SELECT c.${source.key} AS id, -bm25(${source.fts}) AS score
    FROM ${source.fts} JOIN ${source.table} AS c ON c.${source.rowid} = ${source.fts}.rowid
    WHERE ${source.fts} MATCH ? AND ${filters.join(' AND ')}
    ORDER BY bm25(${source.fts}) LIMIT ?`
}
