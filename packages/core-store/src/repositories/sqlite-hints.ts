import { type RawBuilder, sql } from 'kysely'
import type { RepositoryBackend } from './backend'

/**
 * SQLite: `+column` keeps the planner off the indexes that start with that column, so a lookup by primary
 * key stays a primary-key lookup instead of scanning the whole workspace through a `workspace_id` index.
 * PostgreSQL's planner needs no such hint (and has no unary plus on text): the plain column.
 */
export function _notIndexed(backend: RepositoryBackend, column: string): RawBuilder<string> {
  return backend.name === 'sqlite' ? sql<string>`+${sql.ref(column)}` : sql<string>`${sql.ref(column)}`
}

/**
 * `column` is one of `ids`, as one bound parameter for any number of them: a JSON array read with
 * `json_each` on SQLite, an array with `= ANY` on PostgreSQL.
 */
export function _inIdList(
  backend: RepositoryBackend,
  column: string,
  ids: readonly (number | string)[],
): RawBuilder<boolean> {
  return backend.name === 'sqlite'
    ? sql<boolean>`${sql.ref(column)} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`
    : sql<boolean>`${sql.ref(column)} = ANY(${[...ids]})`
}

/**
 * A row source of `values` with one text column `value`, bound as one parameter: `json_each` on SQLite,
 * `unnest` of a text array on PostgreSQL. Use it as `WITH a(name) AS (${_textRows(backend, names)})`.
 */
export function _textRows(backend: RepositoryBackend, values: readonly string[]): RawBuilder<unknown> {
  return backend.name === 'sqlite'
    ? sql`SELECT value FROM json_each(${JSON.stringify(values)})`
    : sql`SELECT unnest(CAST(${[...values]} AS text[])) AS value`
}

/** A row source of pairs with text columns `a` and `b` (see {@link _textRows}). */
export function _pairRows(
  backend: RepositoryBackend,
  pairs: readonly (readonly [string, string])[],
): RawBuilder<unknown> {
  return backend.name === 'sqlite'
    ? sql`SELECT json_extract(value, '$.a') AS a, json_extract(value, '$.b') AS b FROM json_each(${JSON.stringify(pairs.map(([a, b]) => ({ a, b })))})`
    : sql`SELECT unnest(CAST(${pairs.map(([a]) => a)} AS text[])) AS a, unnest(CAST(${pairs.map(([, b]) => b)} AS text[])) AS b`
}

/**
 * SQLite: `CROSS JOIN … ON` joins in the written order (the short list drives, one index seek per entry).
 * PostgreSQL has no `CROSS JOIN … ON` and plans the order itself: a plain `JOIN`.
 */
export function _orderedJoin(backend: RepositoryBackend): RawBuilder<unknown> {
  return backend.name === 'sqlite' ? sql`CROSS JOIN` : sql`JOIN`
}
