import { maskSecrets } from '@hymem/core-store'
import type { PGliteLike } from '@hymem/core-store/postgres'
import { HyMemError } from '../errors'

/**
 * Where a memory lives: a PostgreSQL URL (`postgres://…` / `postgresql://…`), a `pglite:` URL (an in-process
 * PGlite: `pglite:///data/dir` or `pglite:memory`, for tests and development), or a PGlite instance you
 * created (it stays yours). Unset: the SQLite file.
 */
export type DatabaseOption = string | { readonly pglite: PGliteLike; readonly schema?: string }

/** The backend a memory opens on, resolved from `database` and `databasePath`. */
export type DatabaseChoice =
  | { readonly backend: 'sqlite'; readonly path: string }
  | { readonly backend: 'postgres'; readonly url: string; readonly inProcess: boolean }
  | {
      readonly backend: 'postgres'
      readonly pglite: PGliteLike
      readonly schema?: string
      readonly inProcess: true
    }

const SERVER_URL = /^postgres(ql)?:\/\//i
const PGLITE_URL = /^pglite:/i

/** Whether `url` is a database URL HyMem opens (`postgres://`, `postgresql://`, `pglite:`). */
export function isDatabaseUrl(url: string): boolean {
  return SERVER_URL.test(url) || PGLITE_URL.test(url)
}

/** Resolves the `database` option; a value that is neither a database URL nor a PGlite is refused. */
export function chooseDatabase(database: DatabaseOption | undefined, sqlitePath: string): DatabaseChoice {
  if (database === undefined) return { backend: 'sqlite', path: sqlitePath }
  if (typeof database === 'string') {
    if (isDatabaseUrl(database.trim())) {
      const url = database.trim()
      return { backend: 'postgres', url, inProcess: PGLITE_URL.test(url) }
    }
    throw new HyMemError(
      'INVALID_INPUT',
      'database must be a postgres:// or postgresql:// URL (or pglite:<dir> for tests); a SQLite file is databasePath',
    )
  }
  if (database && typeof database === 'object' && database.pglite) {
    return {
      backend: 'postgres',
      pglite: database.pglite,
      ...(database.schema !== undefined ? { schema: database.schema } : {}),
      inProcess: true,
    }
  }
  throw new HyMemError('INVALID_INPUT', 'database must be a PostgreSQL URL or { pglite } (a PGlite instance)')
}

/** Where the choice points, for logs and errors, its secrets masked. */
export function describeDatabase(choice: DatabaseChoice): string {
  if (choice.backend === 'sqlite') return choice.path
  if ('pglite' in choice) return 'pglite (in process)'
  return maskSecrets(choice.url)
}
