import {
  type DatabaseConnection,
  type Driver,
  SqliteDialect,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely'
import type { FileGate } from './file-gate'

/** kysely's SQLite dialect, with every held connection also holding the file's in-process gate. */
export class GatedSqliteDialect extends SqliteDialect {
  readonly #gate: FileGate

  constructor(config: SqliteDialectConfig, gate: FileGate) {
    super(config)
    this.#gate = gate
  }

  override createDriver(): Driver {
    return new GatedDriver(super.createDriver(), this.#gate)
  }
}

class GatedDriver implements Driver {
  readonly #inner: Driver
  readonly #gate: FileGate
  readonly #releases = new WeakMap<DatabaseConnection, () => void>()

  constructor(inner: Driver, gate: FileGate) {
    this.#inner = inner
    this.#gate = gate
  }

  init(): Promise<void> {
    return this.#inner.init()
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#gate.acquire()
    try {
      const connection = await this.#inner.acquireConnection()
      this.#releases.set(connection, release)
      return connection
    } catch (error) {
      release()
      throw error
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#inner.beginTransaction(connection, settings)
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(connection)
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(connection)
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    try {
      await this.#inner.releaseConnection(connection)
    } finally {
      this.#releases.get(connection)?.()
      this.#releases.delete(connection)
    }
  }

  destroy(): Promise<void> {
    return this.#inner.destroy()
  }
}
