import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely'
import { StoreError } from '../kernel/errors'

type MapError = (error: unknown) => unknown

export interface ErrorMapping {
  /** Turns an engine's error into a `StoreError` where it can (each engine knows its own). */
  readonly mapError: MapError
  /**
   * Statements binding more parameters are refused before they are sent (PostgreSQL's wire protocol counts
   * them in 16 bits: past 65,535 the server drops the connection).
   */
  readonly maxParameters?: { readonly engine: string; readonly limit: number }
}

/** `dialect` with every driver error passed through `mapError`, and statements checked for their size. */
export function mappedDialect(dialect: Dialect, mapping: ErrorMapping): Dialect {
  return {
    createDriver: () => new MappedDriver(dialect.createDriver(), mapping),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  }
}

class MappedConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection
  readonly #mapping: ErrorMapping

  constructor(inner: DatabaseConnection, mapping: ErrorMapping) {
    this.inner = inner
    this.#mapping = mapping
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    this.#checkSize(compiledQuery)
    try {
      return await this.inner.executeQuery<R>(compiledQuery)
    } catch (error) {
      throw this.#mapping.mapError(error)
    }
  }

  async *streamQuery<R>(
    compiledQuery: CompiledQuery,
    chunkSize?: number,
  ): AsyncIterableIterator<QueryResult<R>> {
    this.#checkSize(compiledQuery)
    try {
      yield* this.inner.streamQuery<R>(compiledQuery, chunkSize)
    } catch (error) {
      throw this.#mapping.mapError(error)
    }
  }

  #checkSize(compiledQuery: CompiledQuery): void {
    const max = this.#mapping.maxParameters
    const count = compiledQuery.parameters.length
    if (max && count > max.limit) {
      throw new StoreError(
        'INVALID_INPUT',
        `${max.engine} cannot run a statement this large (${count} parameters, at most ${max.limit}); send a smaller filter or list`,
      )
    }
  }
}

type SavepointMethod = (
  connection: DatabaseConnection,
  name: string,
  compileQuery: QueryCompiler['compileQuery'],
) => Promise<void>

class MappedDriver implements Driver {
  readonly #inner: Driver
  readonly #mapping: ErrorMapping
  readonly savepoint?: SavepointMethod
  readonly rollbackToSavepoint?: SavepointMethod
  readonly releaseSavepoint?: SavepointMethod

  constructor(inner: Driver, mapping: ErrorMapping) {
    this.#inner = inner
    this.#mapping = mapping
    // Savepoints only where the inner driver has them (kysely asks whether they exist).
    this.savepoint = this.#savepointMethod(inner.savepoint)
    this.rollbackToSavepoint = this.#savepointMethod(inner.rollbackToSavepoint)
    this.releaseSavepoint = this.#savepointMethod(inner.releaseSavepoint)
  }

  #savepointMethod(method: SavepointMethod | undefined): SavepointMethod | undefined {
    if (!method) return undefined
    return (connection, name, compileQuery) =>
      this.#mapped(() => method.call(this.#inner, unwrap(connection), name, compileQuery))
  }

  async #mapped<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn()
    } catch (error) {
      throw this.#mapping.mapError(error)
    }
  }

  init(): Promise<void> {
    return this.#mapped(() => this.#inner.init())
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await this.#mapped(() => this.#inner.acquireConnection())
    return new MappedConnection(inner, this.#mapping)
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
