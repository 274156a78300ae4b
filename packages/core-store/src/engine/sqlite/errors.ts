import { StoreError } from '../../kernel/errors'

/** What SQLite says when a statement passes one of its compile-time limits. */
const LIMIT_MESSAGES = [
  /too many SQL variables/,
  /Expression tree is too large/,
  /parser stack overflow/,
  /too many terms in compound SELECT/,
  /too many (columns|arguments|FROM clause terms|terms in ORDER BY clause|references to)/,
  /at most \d+ tables in a join/,
  /LIKE or GLOB pattern too complex/,
  /string or blob too big/,
  /statement too long/,
]

/**
 * Turns SQLite refusing a statement for its size (too many parameters, an expression nested too deep, a
 * string too long) into `StoreError('INVALID_INPUT')`: only input makes statements that large. Anything
 * else passes through unchanged.
 */
export function mapSqliteError(error: unknown): unknown {
  if (!(error instanceof Error) || error.name !== 'SqliteError') return error
  const code = (error as { code?: unknown }).code
  if (code !== 'SQLITE_TOOBIG' && !LIMIT_MESSAGES.some((pattern) => pattern.test(error.message))) return error
  return new StoreError(
    'INVALID_INPUT',
    `SQLite cannot run a statement this large (${error.message}); send a smaller filter or list`,
    { cause: error },
  )
}
