import { StoreError } from '../../kernel/errors'

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
])

interface PgErrorLike {
  readonly code?: string
  readonly message?: string
  readonly errors?: readonly PgErrorLike[]
}

/**
 * Turns a driver or server error into a one-line, actionable `StoreError` (the original is its `cause`):
 * an unreachable server, refused credentials, a missing database, a statement timeout, text PostgreSQL
 * cannot store, a statement past one of PostgreSQL's limits (class 54: only input makes statements that
 * large). Anything else (constraint violations, bugs) passes through unchanged.
 */
export function mapPostgresError(error: unknown, location: string): unknown {
  if (error instanceof StoreError || typeof error !== 'object' || error === null) return error
  const failure = error as PgErrorLike
  const code = failure.code ?? failure.errors?.find((inner) => inner.code)?.code
  const message = failure.message ?? ''
  if (code?.startsWith('54')) {
    return new StoreError(
      'INVALID_INPUT',
      `PostgreSQL cannot run a statement this large (${message}); send a smaller filter or list`,
      { cause: error },
    )
  }
  if (
    (code !== undefined && (UNREACHABLE_CODES.has(code) || code.startsWith('08') || code === '57P03')) ||
    /^Connection terminated|connection timeout|Client has encountered a connection error/i.test(message)
  ) {
    return new StoreError(
      'UNREACHABLE',
      `cannot reach PostgreSQL at ${location} (${code ?? message}); check HYMEM_DATABASE_URL and that the server is running`,
      { cause: error },
    )
  }
  if (code === '57P01' || code === '57P02') {
    return new StoreError(
      'UNREACHABLE',
      `PostgreSQL at ${location} closed the connection (${message}); the next request reconnects`,
      { cause: error },
    )
  }
  if (code === '28P01' || code === '28000') {
    return new StoreError(
      'AUTH_FAILED',
      `PostgreSQL at ${location} refused the credentials (${message}); check the user and password in HYMEM_DATABASE_URL`,
      { cause: error },
    )
  }
  if (code === '3D000') {
    return new StoreError(
      'NOT_FOUND',
      `${message} at ${location}; create it (CREATE DATABASE …) or fix the database name in HYMEM_DATABASE_URL`,
      { cause: error },
    )
  }
  if (code === '57014') {
    return new StoreError(
      'TIMEOUT',
      `a statement ran past the statement timeout and was cancelled (${location}); raise statementTimeoutMs if the database is just slow`,
      { cause: error },
    )
  }
  if (code === '22021' || code === '22P05' || code === '22P02') {
    return new StoreError('INVALID_INPUT', `PostgreSQL cannot store this value: ${message}`, { cause: error })
  }
  return error
}
