import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  PostgresDialect,
  type PostgresDialectConfig,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely'

type MapError = (error: unknown) => unknown

/** kysely's PostgreSQL dialect, with every driver error turned into a one-line `StoreError` where it can be. */
export class MappedPostgresDialect extends PostgresDialect {
  readonly #mapError: MapError

  constructor(config: PostgresDialectConfig, mapError: MapError) {
    super(config)
    this.#mapError = mapError
  }

  override createDriver(): Driver {
    return new MappedDriver(super.createDriver(), this.#mapError)
  }
}

class MappedConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection
  readonly #mapError: MapError

  constructor(inner: DatabaseConnection, mapError: MapError) {
    this.inner = inner
    this.#mapError = mapError
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await this.inner.executeQuery<R>(compiledQuery)
    } catch (error) {
      throw this.#mapError(error)
    }
  }

  async *streamQuery<R>(
    compiledQuery: CompiledQuery,
    chunkSize?: number,
  ): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(compiledQuery, chunkSize)
    } catch (error) {
      throw this.#mapError(error)
    }
  }
}

class MappedDriver implements Driver {
  readonly #inner: Driver
  readonly #mapError: MapError

  constructor(inner: Driver, mapError: MapError) {
    this.#inner = inner
    this.#mapError = mapError
  }

  async #mapped<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn()
    } catch (error) {
      throw this.#mapError(error)
    }
  }

  init(): Promise<void> {
    return this.#mapped(() => this.#inner.init())
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await this.#mapped(() => this.#inner.acquireConnection())
    return new MappedConnection(inner, this.#mapError)
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#mapped(() => this.#inner.beginTransaction(unwrap(connection), settings))
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#mapped(() => this.#inner.commitTransaction(unwrap(connection)))
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#mapped(() => this.#inner.rollbackTransaction(unwrap(connection)))
  }

  savepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.#mapped(async () => this.#inner.savepoint?.(unwrap(connection), name, compileQuery))
  }

  rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.#mapped(async () => this.#inner.rollbackToSavepoint?.(unwrap(connection), name, compileQuery))
  }

  releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.#mapped(async () => this.#inner.releaseSavepoint?.(unwrap(connection), name, compileQuery))
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection(unwrap(connection))
  }

  destroy(): Promise<void> {
    return this.#inner.destroy()
  }
}

function unwrap(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof MappedConnection ? connection.inner : connection
}
