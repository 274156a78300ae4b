import type { Kysely, RawBuilder } from 'kysely'
import type { HyMemDatabase } from '../kernel/tables'
import type { Repositories } from './index'
import type { RepositoryOptions, RepositoryScope } from './scope'

/**
 * What a repository written once with the kysely builder needs to know about the SQL engine under it. The
 * builder already compiles placeholders, quoting, `ON CONFLICT` and `RETURNING` for each dialect; these are
 * the few differences it cannot hide.
 */
export interface RepositoryBackend {
  readonly name: 'sqlite' | 'postgres'
  /**
   * Orders rows by insertion, for tables without an integer key: SQLite's implicit `rowid`, the `seq`
   * identity column that every such table has on PostgreSQL.
   */
  readonly insertionOrder: RawBuilder<number>
  /**
   * True where a read-then-write needs `SELECT … FOR UPDATE` to be race-free (PostgreSQL, where write
   * transactions run concurrently). SQLite's `BEGIN IMMEDIATE` already serialises writers, and rejects the
   * clause. Use it as `query.$if(scope.backend.rowLocks, (q) => q.forUpdate())`.
   */
  readonly rowLocks: boolean
  /** The `write`/`read` guards of a repository scope on this backend. */
  guards(db: Kysely<HyMemDatabase>, options: RepositoryOptions): Pick<RepositoryScope, 'write' | 'read'>
}

/**
 * Per-backend replacements for repositories (or single methods) whose SQL is engine-specific: each entry
 * gets the scope and the portable repository, and returns the repository to use, usually
 * `{ ...portable, method: backendSpecificMethod }`.
 */
export type RepositoryOverrides = {
  readonly [K in keyof Repositories]?: (scope: RepositoryScope, portable: Repositories[K]) => Repositories[K]
}

/** Applies `overrides` on top of the portable repositories. */
export function _applyRepositoryOverrides(
  repositories: Repositories,
  scope: RepositoryScope,
  overrides: RepositoryOverrides,
): Repositories {
  const out: Record<string, unknown> = { ...repositories }
  for (const [name, override] of Object.entries(overrides) as [
    keyof Repositories,
    (scope: RepositoryScope, portable: unknown) => unknown,
  ][]) {
    out[name] = override(scope, repositories[name])
  }
  return out as unknown as Repositories
}
