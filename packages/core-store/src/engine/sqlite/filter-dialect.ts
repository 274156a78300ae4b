import { type RawBuilder, type SqlBool, sql } from 'kysely'
import type { FilterDialect } from '../../filter/translate'
import type { JsonScalar } from '../../filter/types'

type Condition = RawBuilder<SqlBool>

/** The elements of a JS list bound as one JSON parameter: SQLite's stand-in for an array parameter. */
const elementsOf = (values: readonly JsonScalar[]) =>
  sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`

/**
 * Filters on SQLite, where JSON columns are text: paths through `json_type` and `json_extract`, lists
 * through `json_each`, and JSON types checked before values (`json_extract` gives `true` as 1).
 */
export const SQLITE_FILTER_DIALECT: FilterDialect = {
  notEqual: (ref, value) => sql<SqlBool>`(${ref} IS NOT ${value})`,
  inList: (ref, values) => sql<SqlBool>`(${ref} IN ${elementsOf(values)})`,
  containsText: (ref, text) => sql<SqlBool>`(instr(lower(${ref}), lower(${text})) > 0)`,
  hasId: (ref, id) => sql<SqlBool>`(EXISTS (SELECT 1 FROM json_each(${ref}) WHERE value = ${id}))`,
  noIds: (ref) => sql<SqlBool>`(json_array_length(${ref}) = 0)`,
  not: (inner) => sql<SqlBool>`(coalesce(${inner}, 0) = 0)`,
  jsonIs: (ref, path, type) => sql<SqlBool>`(json_type(${ref}, ${jsonPath(path)}) = ${type})`,
  jsonEquals: (ref, path, value) => jsonEquals(ref, jsonPath(path), value),
  jsonIn: (ref, path, values) => jsonIn(ref, jsonPath(path), values),
  jsonPresent: (ref, path) => {
    const type = sql`json_type(${ref}, ${jsonPath(path)})`
    return sql<SqlBool>`(${type} IS NOT NULL AND ${type} <> 'null')`
  },
  jsonHas: (ref, path, value) => jsonHas(ref, jsonPath(path), value),
  jsonContainsText: (ref, path, text) => {
    const type = sql`json_type(${ref}, ${jsonPath(path)})`
    const extracted = sql`lower(json_extract(${ref}, ${jsonPath(path)}))`
    return sql<SqlBool>`(${type} = 'text' AND instr(${extracted}, lower(${text})) > 0)`
  },
  jsonCompare: (ref, path, comparison, value) => {
    const type = sql`json_type(${ref}, ${jsonPath(path)})`
    const extracted = sql`json_extract(${ref}, ${jsonPath(path)})`
    if (typeof value === 'number') {
      const number = sql`CAST(${extracted} AS REAL)`
      return sql<SqlBool>`(${type} IN ('integer', 'real') AND ${number} ${sql.raw(comparison)} ${value})`
    }
    return sql<SqlBool>`(${type} = 'text' AND ${extracted} ${sql.raw(comparison)} ${value})`
  },
}

function jsonEquals(ref: RawBuilder<unknown>, path: string, value: JsonScalar): Condition {
  const type = sql`json_type(${ref}, ${path})`
  if (value === null) return sql<SqlBool>`(${type} = 'null')`
  if (typeof value === 'boolean') return sql<SqlBool>`(${type} = ${value ? 'true' : 'false'})`
  if (typeof value === 'number') {
    return sql<SqlBool>`(${type} IN ('integer', 'real') AND json_extract(${ref}, ${path}) = ${value})`
  }
  return sql<SqlBool>`(${type} = 'text' AND json_extract(${ref}, ${path}) = ${value})`
}

/** Numbers and strings each compared with their list; `null`, `true` and `false` are JSON types of their own. */
function jsonIn(ref: RawBuilder<unknown>, path: string, values: readonly JsonScalar[]): Condition {
  const type = sql`json_type(${ref}, ${path})`
  const extracted = sql`json_extract(${ref}, ${path})`
  const numbers = values.filter((value) => typeof value === 'number')
  const texts = values.filter((value) => typeof value === 'string')
  const types = [...new Set(values.filter((value) => value === null || typeof value === 'boolean'))].map(
    String,
  )
  const parts: Condition[] = []
  if (numbers.length > 0) {
    parts.push(sql`(${type} IN ('integer', 'real') AND ${extracted} IN ${elementsOf(numbers)})`)
  }
  if (texts.length > 0) parts.push(sql`(${type} = 'text' AND ${extracted} IN ${elementsOf(texts)})`)
  if (types.length > 0) parts.push(sql`(${type} IN ${elementsOf(types)})`)
  return sql<SqlBool>`(${sql.join(parts, sql` OR `)})`
}

function jsonHas(ref: RawBuilder<unknown>, path: string, value: JsonScalar): Condition {
  const elements = sql`json_each(${ref}, ${path})`
  if (value === null) return sql<SqlBool>`(EXISTS (SELECT 1 FROM ${elements} WHERE type = 'null'))`
  if (typeof value === 'boolean') {
    return sql<SqlBool>`(EXISTS (SELECT 1 FROM ${elements} WHERE type = ${value ? 'true' : 'false'}))`
  }
  return sql<SqlBool>`(EXISTS (SELECT 1 FROM ${elements} WHERE type <> 'object' AND value = ${value}))`
}

/** SQLite's path syntax, `$."a"."b"`, of a checked path. */
function jsonPath(path: readonly string[]): string {
  return `$${path.map((key) => `."${key}"`).join('')}`
}
