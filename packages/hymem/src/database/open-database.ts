import { openStore, type Store, type StoreLog, type ThreadWriteLock } from '@hymem/core-store'
import type { DatabaseChoice } from './database-option'

/** What every store a facade opens shares. */
export interface OpenDatabaseOptions {
  readonly clock?: () => Date
  readonly log?: StoreLog
  /** SQLite only: the write lock a dream worker thread shares. */
  readonly threadWriteLock?: ThreadWriteLock
}

/**
 * Opens the store a choice names. PostgreSQL's module (and `pg`) is imported only here, on demand, so a
 * SQLite memory never loads it; a PostgreSQL memory never loads better-sqlite3 (`openStore` loads it lazily).
 */
export async function openDatabase(
  choice: DatabaseChoice,
  options: OpenDatabaseOptions = {},
): Promise<Store> {
  const common = {
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.log ? { log: options.log } : {}),
  }
  if (choice.backend === 'sqlite') {
    return openStore({
      path: choice.path,
      ...common,
      ...(options.threadWriteLock ? { threadWriteLock: options.threadWriteLock } : {}),
    })
  }
  const { openPostgresStore } = await import('@hymem/core-store/postgres')
  if ('pglite' in choice) {
    return openPostgresStore({
      pglite: choice.pglite,
      ...(choice.schema !== undefined ? { schema: choice.schema } : {}),
      ...common,
    })
  }
  return openPostgresStore({ url: choice.url, ...common })
}
