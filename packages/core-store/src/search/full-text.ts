import type { Kysely } from 'kysely'
import { _connectionGuards, type RepositoryOptions } from '../repositories/scope'
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
 * (and optionally sessions or, for messages, the author). Scores are `-bm25`, higher is better. Runs on the
 * store's cached prepared statements: on the query hot path, building SQL costs more than the lookup.
 *
 * @example
 * const hits = await store.fullText.search('messages', buildMatchQuery('postgres'), { workspaceId: 'default', limit: 10 })
 */
export function createFullTextSearch(db: Kysely<HyMemDatabase>, options: RepositoryOptions): FullTextSearch {
  const scope = _connectionGuards(db, options)
  const sqlCache = new Map<string, string>()
  return {
    async search(table, match, query) {
      const source = SOURCES[table]
      if (!source) throw new StoreError('INVALID_INPUT', `no full-text index for table ${String(table)}`)
      checkQuery(table, query)
      if (match === null || match.trim() === '') return []
      if (query.sessionIds?.length === 0) return []
      const sessions = query.sessionIds?.length ?? 0
      const hasPeer = query.peerId !== undefined
      const key = `${table}:${sessions}:${hasPeer}`
      let text = sqlCache.get(key)
      if (text === undefined) {
        text = searchSql(source, sessions, hasPeer)
        sqlCache.set(key, text)
      }
      const params: unknown[] = [match, query.workspaceId, ...(query.sessionIds ?? [])]
      if (hasPeer) params.push(query.peerId)
      params.push(query.limit)
      const statement = text
      return scope.read(() => {
        try {
          return options.statements.prepare(statement).all(params) as FullTextHit[]
        } catch (error) {
          throw new StoreError(
            'INVALID_INPUT',
            `invalid full-text expression ${JSON.stringify(match)}: ${(error as Error).message}; build it with buildMatchQuery`,
            { cause: error },
          )
        }
      })
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
