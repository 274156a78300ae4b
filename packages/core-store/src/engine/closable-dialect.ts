import type { DatabaseConnection, Dialect, Driver, TransactionSettings } from 'kysely'
import { StoreError } from '../kernel/errors'

/** What every use of a closed store throws. */
export function storeClosedError(location: string): StoreError {
  return new StoreError('CLOSED', `the store at ${location} is closed: open it again to read or write`)
}

/**
 * A dialect whose driver can be closed behind kysely's back: after `close()` every connection asked for (a
 * query, a transaction) is refused with `StoreError('CLOSED')`, where kysely's own destroy would leave a raw
 * "driver has already been destroyed" (or the driver's "connection is not open", "pool has ended").
 */
export function closableDialect(
  dialect: Dialect,
  location: string,
): { readonly dialect: Dialect; close(): Promise<void> } {
  let driver: ClosableDriver | undefined
  let closed = false
  return {
    dialect: {
      createDriver: () => {
        driver = new ClosableDriver(dialect.createDriver(), () => closed, location)
        return driver
      },
      createQueryCompiler: () => dialect.createQueryCompiler(),
      createAdapter: () => dialect.createAdapter(),
      createIntrospector: (db) => dialect.createIntrospector(db),
    },
    close: async () => {
      if (closed) return
      closed = true
      await driver?.destroyInner()
    },
  }
}

class ClosableDriver implements Driver {
  readonly #inner: Driver
  readonly #isClosed: () => boolean
  readonly #location: string
  readonly savepoint?: Driver['savepoint']
  readonly rollbackToSavepoint?: Driver['rollbackToSavepoint']
  readonly releaseSavepoint?: Driver['releaseSavepoint']

  constructor(inner: Driver, isClosed: () => boolean, location: string) {
    this.#inner = inner
    this.#isClosed = isClosed
    this.#location = location
    // Savepoints only where the inner driver has them (kysely asks whether they exist).
    if (inner.savepoint) this.savepoint = inner.savepoint.bind(inner)
    if (inner.rollbackToSavepoint) this.rollbackToSavepoint = inner.rollbackToSavepoint.bind(inner)
    if (inner.releaseSavepoint) this.releaseSavepoint = inner.releaseSavepoint.bind(inner)
  }

  #open(): void {
    if (this.#isClosed()) throw storeClosedError(this.#location)
  }

  async init(): Promise<void> {
    this.#open()
    await this.#inner.init()
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    this.#open()
    return this.#inner.acquireConnection()
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

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection(connection)
  }

  /** kysely's destroy (never called by a store: it closes through {@link closableDialect}). */
  destroy(): Promise<void> {
    return this.#inner.destroy()
  }

  destroyInner(): Promise<void> {
    return this.#inner.destroy()
  }
}
