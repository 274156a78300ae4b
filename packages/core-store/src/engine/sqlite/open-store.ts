import { createRequire } from 'node:module'
import { dirname, resolve } from 'node:path'
import type Database from 'better-sqlite3'
import { Kysely, sql } from 'kysely'
import { createPrivateFile, ensurePrivateDirectory } from '../../files'
import { StoreError } from '../../kernel/errors'
import { randomId } from '../../kernel/ids'
import type { HyMemDatabase } from '../../kernel/tables'
import { _createRepositoryScope } from '../../repositories/scope'
import type { ScopeWithBuilder } from '../../store/builder'
import { createRepositories } from '../../store/repositories'
import { _applyRepositoryOverrides } from '../../store/repository-overrides'
import type { SqliteStoreInfo, StoreContext, VectorSupport } from '../../store/types'
import { closableDialect, storeClosedError } from '../closable-dialect'
import { mappedDialect } from '../mapped-dialect'
import { createStoreRunLock } from '../store-run-lock'
import { createSqliteEngine } from './engine'
import { mapSqliteError } from './errors'
import { attachFileGate } from './file-gate'
import { createFullTextSearch } from './full-text'
import { registerFullTextFunctions } from './full-text-functions'
import { GatedSqliteDialect } from './gated-dialect'
import { migrate, readVersion } from './migrate'
import { sqliteRepositoryOverrides } from './repositories'
import { createRunLock } from './run-lock'
import { cachingDatabase, createStatementCache } from './statement-cache'
import type { OpenStoreOptions, SqliteStore } from './types'
import { createVectorIndex } from './vector-index'

const BUSY_TIMEOUT_MS = 10_000
const DEFAULT_EMBEDDING_MAX_SCAN = 5000

/**
 * better-sqlite3 and sqlite-vec load on the first `openStore`, not when the package is imported, so a process
 * that uses only the PostgreSQL backend never loads the native module.
 */
const requireLazily = createRequire(import.meta.url)
let sqliteDatabase: typeof Database | undefined

function sqliteDriver(): typeof Database {
  if (sqliteDatabase) return sqliteDatabase
  try {
    sqliteDatabase = requireLazily('better-sqlite3') as typeof Database
    return sqliteDatabase
  } catch (error) {
    throw new StoreError(
      'MISSING_DEPENDENCY',
      `the SQLite driver better-sqlite3 cannot load (${(error as Error).message}); reinstall HyMem's dependencies`,
      { cause: error },
    )
  }
}

/**
 * Opens (creating and migrating when needed) the HyMem SQLite file.
 *
 * @example
 * const store = openStore({ path: '/tmp/hymem.sqlite' })
 * await store.messages.insertBatch('default', 's1', [{ peerId: 'me', content: 'hello' }])
 * await store.close()
 */
export function openStore(options: OpenStoreOptions): SqliteStore {
  const path = options.path === ':memory:' ? ':memory:' : resolve(options.path)
  const sqlite = connect(path)
  try {
    configure(sqlite, path)
    const vectors = loadVectors(sqlite, options.loadVectorExtension ?? true)
    if (vectors.mode === 'js-scan' && vectors.reason)
      options.log?.({ kind: 'vector-fallback', reason: vectors.reason })
    const migration = migrate(sqlite, path, (progress) => options.log?.({ kind: 'upgrade', ...progress }))
    const store = assemble(sqlite, path, options, vectors)
    options.log?.({ kind: 'open', path, schemaVersion: migration.to, migrated: migration.applied, vectors })
    return store
  } catch (error) {
    sqlite.close()
    throw error
  }
}

function connect(path: string): Database.Database {
  const SqliteDatabase = sqliteDriver()
  if (path !== ':memory:') {
    try {
      ensurePrivateDirectory(dirname(path))
    } catch (error) {
      throw new StoreError(
        'NOT_WRITABLE',
        `cannot create the directory for ${path}: ${(error as Error).message}; choose a writable HYMEM_ROOT`,
        { cause: error },
      )
    }
  }
  try {
    // SQLite creates a new database 0644, and its -wal and -shm files with the database's mode: an empty
    // file made 0600 first is opened as a new database, and keeps all three private.
    if (path !== ':memory:') createPrivateFile(path)
    return new SqliteDatabase(path)
  } catch (error) {
    throw new StoreError(
      'NOT_WRITABLE',
      `cannot open ${path}: ${(error as Error).message}; check the path exists, is a file and is writable`,
      { cause: error },
    )
  }
}

/** Pragmas go first so that they already apply to the migrations. */
function configure(sqlite: Database.Database, path: string): void {
  try {
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
    if (path !== ':memory:') sqlite.pragma('journal_mode = WAL')
    sqlite.pragma('synchronous = NORMAL')
    sqlite.pragma('foreign_keys = ON')
    // Deleted and overwritten content is zeroed in its pages, so forgetting leaves no words behind.
    sqlite.pragma('secure_delete = ON')
    registerFullTextFunctions(sqlite)
    readVersion(sqlite)
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      throw new StoreError(
        'NOT_SQLITE',
        `${path} is not a SQLite database; point HYMEM_ROOT at another folder`,
        {
          cause: error,
        },
      )
    }
    if (code === 'SQLITE_READONLY' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_IOERR') {
      throw new StoreError('NOT_WRITABLE', `cannot write to ${path} (${code}); check its permissions`, {
        cause: error,
      })
    }
    throw error
  }
}

function loadVectors(sqlite: Database.Database, enabled: boolean): VectorSupport {
  if (!enabled) return { mode: 'js-scan', version: null, reason: 'sqlite-vec disabled by option' }
  try {
    const sqliteVec = requireLazily('sqlite-vec') as { load(db: Database.Database): void }
    sqliteVec.load(sqlite)
    const row = sqlite.prepare('SELECT vec_version() AS version').get() as { version: string }
    return { mode: 'sqlite-vec', version: row.version, reason: null }
  } catch (error) {
    return {
      mode: 'js-scan',
      version: null,
      reason: `sqlite-vec could not load: ${(error as Error).message}`,
    }
  }
}

function assemble(
  sqlite: Database.Database,
  path: string,
  options: OpenStoreOptions,
  vectors: VectorSupport,
): SqliteStore {
  const clock = options.clock ?? (() => new Date())
  const context: StoreContext = Object.freeze({
    clock,
    now: () => clock().toISOString(),
    newId: options.newId ?? (() => randomId()),
    vectors,
    embeddingMaxScan: options.embeddingMaxScan ?? DEFAULT_EMBEDDING_MAX_SCAN,
  })
  const statements = createStatementCache(sqlite)
  const engine = createSqliteEngine(statements)
  const overrides = sqliteRepositoryOverrides(statements)
  const gate = attachFileGate(path)
  const driver = closableDialect(
    mappedDialect(new GatedSqliteDialect({ database: cachingDatabase(sqlite, statements) }, gate), {
      mapError: mapSqliteError,
    }),
    path,
  )
  const db = new Kysely<HyMemDatabase>({ dialect: driver.dialect })
  const lock = options.threadWriteLock
  const writeTurn = lock ? () => lock.acquire() : undefined
  const withWriteTurn = async <T>(fn: () => Promise<T>): Promise<T> => {
    const release = writeTurn ? await writeTurn() : undefined
    try {
      return await fn()
    } finally {
      release?.()
    }
  }
  // The run lock's statements open their own write transaction. The write turn comes before the connection:
  // while it waits, the reads of this thread keep the connection.
  const exclusive = <T>(fn: () => T): Promise<T> =>
    withWriteTurn(() => db.connection().execute(async () => fn()))
  const scope = (executor: Kysely<HyMemDatabase>, inTransaction: boolean): ScopeWithBuilder => {
    const options = { engine, inTransaction, ...(writeTurn ? { writeTurn } : {}) }
    return {
      db: executor,
      ..._applyRepositoryOverrides(
        createRepositories(executor, context, options),
        _createRepositoryScope(executor, context, options),
        overrides,
      ),
      fullText: createFullTextSearch(executor, options, statements),
      vectors: createVectorIndex(executor, context, options, statements),
    }
  }
  let closed = false

  return {
    ...scope(db, false),
    backend: 'sqlite',
    location: path,
    path,
    context,
    transaction: (fn) =>
      withWriteTurn(() =>
        db.connection().execute(async (connection) => {
          if (closed) throw storeClosedError(path)
          await sql`BEGIN IMMEDIATE`.execute(connection)
          try {
            const result = await fn(scope(connection, true))
            await sql`COMMIT`.execute(connection)
            return result
          } catch (error) {
            if (sqlite.inTransaction) await sql`ROLLBACK`.execute(connection)
            throw error
          }
        }),
      ),
    runLock: createStoreRunLock(createRunLock({ db: statements, clock }), exclusive),
    info: (): SqliteStoreInfo => {
      if (closed) throw storeClosedError(path)
      const version = (sqlite.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v
      return {
        backend: 'sqlite',
        location: path,
        version,
        path,
        sqliteVersion: version,
        schemaVersion: readVersion(sqlite),
        journalMode: sqlite.pragma('journal_mode', { simple: true }) as string,
        vectors,
      }
    },
    fork: () => {
      if (path === ':memory:') throw new StoreError('INVALID_INPUT', 'an in-memory store cannot be forked')
      return openStore({ ...options, path })
    },
    close: async () => {
      if (closed) return
      closed = true
      await driver.close()
      gate.detach()
      options.log?.({ kind: 'close', path })
    },
  }
}
