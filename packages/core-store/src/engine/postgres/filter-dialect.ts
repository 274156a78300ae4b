import { type RawBuilder, type SqlBool, sql } from 'kysely'
import type { FilterDialect, PlainFieldKind } from '../../filter/translate'
import type { JsonScalar } from '../../filter/types'

type Condition = RawBuilder<SqlBool>

/** The value at `path` inside the jsonb column `ref` (SQL NULL when absent). */
const at = (ref: RawBuilder<unknown>, path: readonly string[]) =>
  sql`(${ref} #> CAST(${[...path]} AS text[]))`

/** A JSON scalar as a jsonb value, bound as a typed parameter. */
function jsonbOf(value: JsonScalar): RawBuilder<unknown> {
  if (value === null) return sql`CAST('null' AS jsonb)`
  if (typeof value === 'boolean') return sql`CAST(${value ? 'true' : 'false'} AS jsonb)`
  if (typeof value === 'number') return sql`to_jsonb(CAST(${value} AS numeric))`
  return sql`to_jsonb(CAST(${value} AS text))`
}

/** The array type a list of a field kind's operands is bound as (booleans are stored as integers). */
const ARRAY_TYPES: Readonly<Record<PlainFieldKind, string>> = {
  text: 'text[]',
  time: 'text[]',
  number: 'numeric[]',
  boolean: 'integer[]',
}

/**
 * Filters on PostgreSQL, where JSON columns are `jsonb`: paths through `#>`, types through `jsonb_typeof`,
 * values compared as jsonb. Casts guard the conversions in `CASE`, since PostgreSQL does not evaluate `AND`
 * in order. Text compares byte-wise (`COLLATE "C"`), as SQLite does.
 */
export const POSTGRES_FILTER_DIALECT: FilterDialect = {
  notEqual: (ref, value) => sql<SqlBool>`(${ref} IS DISTINCT FROM ${value})`,
  inList: (ref, values, kind) =>
    sql<SqlBool>`(${ref} = ANY(CAST(${[...values]} AS ${sql.raw(ARRAY_TYPES[kind])})))`,
  containsText: (ref, text) => sql<SqlBool>`(strpos(lower(${ref}), lower(CAST(${text} AS text))) > 0)`,
  hasId: (ref, id) => sql<SqlBool>`(${ref} @> jsonb_build_array(CAST(${id} AS text)))`,
  noIds: (ref) => sql<SqlBool>`(jsonb_array_length(${ref}) = 0)`,
  not: (inner) => sql<SqlBool>`(NOT coalesce(${inner}, false))`,
  jsonIs: (ref, path, type) => sql<SqlBool>`(jsonb_typeof(${at(ref, path)}) = ${type})`,
  jsonEquals: (ref, path, value): Condition => sql<SqlBool>`(${at(ref, path)} = ${jsonbOf(value)})`,
  jsonIn: (ref, path, values) => {
    const elements = values.map((value) => JSON.stringify(value))
    return sql<SqlBool>`(${at(ref, path)} = ANY(CAST(${elements} AS jsonb[])))`
  },
  jsonPresent: (ref, path) => sql<SqlBool>`(coalesce(jsonb_typeof(${at(ref, path)}), 'null') <> 'null')`,
  jsonHas: (ref, path, value) => {
    const v = at(ref, path)
    const element = jsonbOf(value)
    return sql<SqlBool>`(CASE jsonb_typeof(${v})
      WHEN 'array' THEN EXISTS (SELECT 1 FROM jsonb_array_elements(${v}) AS e(value) WHERE e.value = ${element})
      WHEN 'object' THEN EXISTS (SELECT 1 FROM jsonb_each(${v}) AS e WHERE e.value = ${element})
      ELSE coalesce(${v} = ${element}, false) END)`
  },
  jsonContainsText: (ref, path, text) => {
    const v = at(ref, path)
    return sql<SqlBool>`(CASE WHEN jsonb_typeof(${v}) = 'string'
      THEN strpos(lower(${v} #>> '{}'), lower(CAST(${text} AS text))) > 0 ELSE false END)`
  },
  jsonCompare: (ref, path, comparison, value) => {
    const v = at(ref, path)
    if (typeof value === 'number')
      return sql<SqlBool>`(CASE WHEN jsonb_typeof(${v}) = 'number'
        THEN CAST(${v} #>> '{}' AS double precision) ${sql.raw(comparison)} ${value} ELSE false END)`
    return sql<SqlBool>`(CASE WHEN jsonb_typeof(${v}) = 'string'
      THEN (${v} #>> '{}') COLLATE "C" ${sql.raw(comparison)} CAST(${value} AS text) ELSE false END)`
  },
}
