import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { HonchoHttpError } from '../errors'
import { isPlainObject } from '../wire/sanitize'
import type { ColumnSpec, Condition, FilterResource } from './types'

/** Deepest AND/OR/NOT (and metadata) nesting a filter may use. */
export const MAX_FILTER_DEPTH = 5

const OPERATORS = new Set(['gte', 'lte', 'gt', 'lt', 'ne', 'in', 'contains', 'icontains'])
const LOGIC = new Set(['AND', 'OR', 'NOT'])
const TRUE: Condition = sql<SqlBool>`1`
const FALSE: Condition = sql<SqlBool>`0`

/**
 * Compiles Honcho's filter DSL into one SQL condition over the resource's allowed columns, or `null` when the
 * filter imposes nothing. Every operand is bound as a parameter; unknown columns and operators, bad types and
 * over-deep nesting throw a 422 `HonchoHttpError`.
 */
export function compileFilter(resource: FilterResource, filters: unknown): Condition | null {
  if (filters === undefined || filters === null) return null
  if (!isPlainObject(filters)) fail('filters must be an object')
  return compileObject(resource, filters, 1)
}

/** ANDs conditions, skipping nulls. */
export function andAll(conditions: readonly (Condition | null | undefined)[]): Condition {
  const parts = conditions.filter((c): c is Condition => c !== null && c !== undefined)
  if (parts.length === 0) return TRUE
  if (parts.length === 1) return parts[0]!
  return sql<SqlBool>`(${sql.join(parts, sql` AND `)})`
}

function orAll(parts: readonly Condition[]): Condition {
  if (parts.length === 0) return FALSE
  return sql<SqlBool>`(${sql.join(parts, sql` OR `)})`
}

function fail(message: string): never {
  throw new HonchoHttpError('VALIDATION', message)
}

function compileObject(
  resource: FilterResource,
  filter: Record<string, unknown>,
  depth: number,
): Condition | null {
  if (depth > MAX_FILTER_DEPTH) fail(`filters may be nested at most ${MAX_FILTER_DEPTH} levels deep`)
  const parts: Condition[] = []
  for (const [key, value] of Object.entries(filter)) {
    const part = LOGIC.has(key)
      ? compileLogic(resource, key, value, depth)
      : compileKey(resource, key, value, depth)
    if (part) parts.push(part)
  }
  return parts.length === 0 ? null : andAll(parts)
}

function compileLogic(resource: FilterResource, op: string, value: unknown, depth: number): Condition | null {
  const items = Array.isArray(value)
    ? value
    : isPlainObject(value)
      ? [value]
      : fail(`${op} takes a list of filters`)
  const compiled: Condition[] = []
  for (const item of items) {
    if (!isPlainObject(item)) fail(`${op} takes a list of filter objects`)
    compiled.push(compileObject(resource, item, depth + 1) ?? TRUE)
  }
  if (compiled.length === 0) return null
  if (op === 'AND') return andAll(compiled)
  if (op === 'OR') return orAll(compiled)
  // NOT: a NULL inner result counts as "not matching", so rows with unset fields are included.
  return sql<SqlBool>`(coalesce(${andAll(compiled)}, 0) = 0)`
}

function compileKey(resource: FilterResource, key: string, value: unknown, depth: number): Condition | null {
  const special = resource.special?.[key]
  if (special) return value === '*' ? null : special(value)
  const column = resource.columns[key]
  if (!column) fail(`Column '${key}' is not allowed for filtering ${resource.name}`)
  if (value === '*') return null
  if (column.kind === 'json') return compileJson(key, column, value, depth)
  if (column.kind === 'json-array') return compileArrayColumn(key, column, value)
  const ref = sql.ref(column.ref)
  if (value === null) return sql<SqlBool>`(${ref} IS NULL)`
  if (Array.isArray(value))
    return inList(
      ref,
      value.map((item) => operand(key, column, item)),
    )
  if (isPlainObject(value)) return compileOperators(key, column, value)
  return sql<SqlBool>`(${ref} = ${operand(key, column, value)})`
}

function compileOperators(key: string, column: ColumnSpec, ops: Record<string, unknown>): Condition {
  const ref = sql.ref(column.ref)
  const parts: Condition[] = []
  for (const [op, raw] of Object.entries(ops)) {
    if (!OPERATORS.has(op)) fail(`Unsupported operator '${op}' on '${key}'`)
    if (op === 'ne' && raw === null) {
      parts.push(sql<SqlBool>`(${ref} IS NOT NULL)`)
      continue
    }
    if (raw === null) fail(`Operator '${op}' on '${key}' does not accept null`)
    if (op === 'in') {
      if (!Array.isArray(raw)) fail(`Operator 'in' on '${key}' takes a list`)
      parts.push(
        inList(
          ref,
          raw.map((item) => operand(key, column, item)),
        ),
      )
    } else if (op === 'contains' || op === 'icontains') {
      if (column.kind !== 'text' && column.kind !== 'enum')
        fail(`Operator '${op}' needs a text column, not '${key}'`)
      if (typeof raw !== 'string') fail(`Operator '${op}' on '${key}' takes a string`)
      parts.push(sql<SqlBool>`(instr(lower(${ref}), lower(${raw})) > 0)`)
    } else {
      const comparison =
        { gte: '>=', lte: '<=', gt: '>', lt: '<', ne: '<>' }[op] ?? fail(`bad operator ${op}`)
      const value = operand(key, column, raw)
      parts.push(
        op === 'ne'
          ? sql<SqlBool>`(${ref} IS NOT ${value})`
          : sql<SqlBool>`(${ref} ${sql.raw(comparison)} ${value})`,
      )
    }
  }
  return andAll(parts)
}

function inList(
  ref: RawBuilder<unknown> | ReturnType<typeof sql.ref>,
  values: readonly unknown[],
): Condition {
  if (values.length === 0) return FALSE
  return sql<SqlBool>`(${ref} IN (${sql.join(values.map((item) => sql`${item}`))}))`
}

/** Checks an operand against the column's type and converts it to the stored form. */
function operand(key: string, column: ColumnSpec, value: unknown): string | number {
  switch (column.kind) {
    case 'text':
      if (typeof value !== 'string') fail(`'${key}' takes a string, got ${describe(value)}`)
      return value
    case 'enum':
      if (typeof value !== 'string' || !column.values?.includes(value)) {
        fail(`'${key}' must be one of ${column.values?.join(', ')}, got ${describe(value)}`)
      }
      return value
    case 'int':
      if (typeof value !== 'number' || !Number.isFinite(value))
        fail(`'${key}' takes a number, got ${describe(value)}`)
      return value
    case 'bool':
      if (typeof value !== 'boolean') fail(`'${key}' takes a boolean, got ${describe(value)}`)
      return value ? 1 : 0
    case 'date':
      return isoDate(key, value)
    default:
      return fail(`'${key}' cannot be compared directly`)
  }
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/
const HAS_ZONE = /(Z|[+-]\d{2}:?\d{2})$/i

/** Parses an ISO date or date-time (naive = UTC) into the stored `toISOString()` form. */
export function isoDate(key: string, value: unknown): string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
    fail(`'${key}' takes an ISO-8601 date, got ${describe(value)}`)
  }
  const text = DATE_ONLY.test(value) ? `${value}T00:00:00Z` : HAS_ZONE.test(value) ? value : `${value}Z`
  const time = Date.parse(text)
  if (Number.isNaN(time)) fail(`'${key}' takes an ISO-8601 date, got ${describe(value)}`)
  return new Date(time).toISOString()
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  return typeof value === 'string' ? `'${value.slice(0, 50)}'` : typeof value
}

/** `source_ids`: a string (or each string of a list) must be an element of the stored JSON array. */
function compileArrayColumn(key: string, column: ColumnSpec, value: unknown): Condition {
  const ref = sql.ref(column.ref)
  if (value === null) return sql<SqlBool>`(json_array_length(${ref}) = 0)`
  const elements = (raw: unknown): string[] => {
    const list = Array.isArray(raw) ? raw : [raw]
    for (const item of list) if (typeof item !== 'string') fail(`'${key}' takes ids (strings)`)
    return list as string[]
  }
  const has = (id: string) => sql<SqlBool>`(EXISTS (SELECT 1 FROM json_each(${ref}) WHERE value = ${id}))`
  if (isPlainObject(value)) {
    const parts: Condition[] = []
    for (const [op, raw] of Object.entries(value)) {
      if (op === 'contains') parts.push(andAll(elements(raw).map(has)))
      else if (op === 'in') parts.push(orAll(elements(raw).map(has)))
      else fail(`Unsupported operator '${op}' on '${key}'`)
    }
    return andAll(parts)
  }
  return andAll(elements(value).map(has))
}

function compileJson(key: string, column: ColumnSpec, value: unknown, depth: number): Condition | null {
  if (value === null) fail(`'${key}' takes an object`)
  if (!isPlainObject(value)) fail(`'${key}' takes an object (containment) or per-key operators`)
  return jsonContainment(column.ref, '$', value, depth)
}

function jsonPath(base: string, key: string): string {
  if (/["\\]/.test(key) || key.length === 0) fail(`metadata key '${key}' cannot be filtered on`)
  return `${base}."${key}"`
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false
  const keys = Object.keys(value)
  return keys.length > 0 && keys.every((k) => OPERATORS.has(k))
}

function jsonContainment(
  ref: string,
  base: string,
  filter: Record<string, unknown>,
  depth: number,
): Condition | null {
  if (depth > MAX_FILTER_DEPTH) fail(`metadata filters may be nested at most ${MAX_FILTER_DEPTH} levels deep`)
  const col = sql.ref(ref)
  const parts: Condition[] = []
  for (const [key, value] of Object.entries(filter)) {
    if (value === '*') continue
    const path = jsonPath(base, key)
    if (isOperatorObject(value)) parts.push(jsonOperators(col, path, key, value))
    else if (isPlainObject(value)) {
      parts.push(sql<SqlBool>`(json_type(${col}, ${path}) = 'object')`)
      const nested = jsonContainment(ref, path, value, depth + 1)
      if (nested) parts.push(nested)
    } else if (Array.isArray(value)) {
      parts.push(sql<SqlBool>`(json_type(${col}, ${path}) = 'array')`)
      for (const item of value) parts.push(jsonArrayHas(col, path, item))
    } else parts.push(jsonEquals(col, path, value))
  }
  return parts.length === 0 ? null : andAll(parts)
}

type ColRef = ReturnType<typeof sql.ref>

function jsonEquals(col: ColRef, path: string, value: unknown): Condition {
  if (value === null) return sql<SqlBool>`(json_type(${col}, ${path}) = 'null')`
  if (typeof value === 'boolean')
    return sql<SqlBool>`(json_type(${col}, ${path}) = ${value ? 'true' : 'false'})`
  if (typeof value === 'number') {
    return sql<SqlBool>`(json_type(${col}, ${path}) IN ('integer', 'real') AND json_extract(${col}, ${path}) = ${value})`
  }
  return sql<SqlBool>`(json_type(${col}, ${path}) = 'text' AND json_extract(${col}, ${path}) = ${String(value)})`
}

function jsonArrayHas(col: ColRef, path: string, item: unknown): Condition {
  if (isPlainObject(item) || Array.isArray(item)) fail('metadata array containment takes scalar elements')
  if (item === null)
    return sql<SqlBool>`(EXISTS (SELECT 1 FROM json_each(${col}, ${path}) WHERE type = 'null'))`
  if (typeof item === 'boolean') {
    return sql<SqlBool>`(EXISTS (SELECT 1 FROM json_each(${col}, ${path}) WHERE type = ${item ? 'true' : 'false'}))`
  }
  return sql<SqlBool>`(EXISTS (SELECT 1 FROM json_each(${col}, ${path}) WHERE type <> 'object' AND value = ${item as string | number}))`
}

function jsonOperators(col: ColRef, path: string, key: string, ops: Record<string, unknown>): Condition {
  const extracted = sql`json_extract(${col}, ${path})`
  const type = sql`json_type(${col}, ${path})`
  const parts: Condition[] = []
  for (const [op, raw] of Object.entries(ops)) {
    if (op === 'ne') {
      parts.push(
        raw === null
          ? sql<SqlBool>`(${type} IS NOT NULL AND ${type} <> 'null')`
          : sql<SqlBool>`(coalesce(${jsonEquals(col, path, raw)}, 0) = 0)`,
      )
    } else if (raw === null) fail(`Operator '${op}' on metadata '${key}' does not accept null`)
    else if (op === 'in') {
      if (!Array.isArray(raw)) fail(`Operator 'in' on metadata '${key}' takes a list`)
      parts.push(orAll(raw.map((item) => jsonEquals(col, path, item))))
    } else if (op === 'contains' || op === 'icontains') {
      if (typeof raw === 'string') {
        parts.push(
          sql<SqlBool>`((${type} = 'text' AND instr(lower(${extracted}), ${raw.toLowerCase()}) > 0) OR (${type} = 'array' AND ${jsonArrayHas(col, path, raw)}))`,
        )
      } else if (typeof raw === 'number' || typeof raw === 'boolean') parts.push(jsonArrayHas(col, path, raw))
      else fail(`Operator '${op}' on metadata '${key}' takes a string or number`)
    } else {
      const comparison = { gte: '>=', lte: '<=', gt: '>', lt: '<' }[op]!
      if (typeof raw === 'number' && Number.isFinite(raw)) {
        parts.push(
          sql<SqlBool>`(${type} IN ('integer', 'real') AND CAST(${extracted} AS REAL) ${sql.raw(comparison)} ${raw})`,
        )
      } else if (typeof raw === 'string') {
        parts.push(sql<SqlBool>`(${type} = 'text' AND ${extracted} ${sql.raw(comparison)} ${raw})`)
      } else fail(`Operator '${op}' on metadata '${key}' takes a number or string`)
    }
  }
  return andAll(parts)
}
