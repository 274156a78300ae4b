import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { StoreError } from '../store/errors'
import { parseIsoTime } from '../time'
import type { Filter, FilterFieldKind, FilterValue, JsonFilter, JsonScalar } from './types'

type Condition = RawBuilder<SqlBool>

/** Deepest `and`/`or`/`not` nesting a filter may reach: far beyond any real filter, short of the stack. */
const MAX_NESTING = 64

/** Written as comparisons, so they are booleans on PostgreSQL too (where `WHERE 1` is refused). */
const TRUE: Condition = sql<SqlBool>`(1 = 1)`
const FALSE: Condition = sql<SqlBool>`(1 = 0)`
const COMPARISONS = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const
/** Field kinds compared as plain column values. */
const PLAIN: readonly FilterFieldKind[] = ['text', 'number', 'boolean', 'time']

/** How one kind of row maps its filterable fields to columns. */
export interface FilterTarget<F extends string> {
  /** Used in error messages, e.g. `messages`. */
  readonly name: string
  readonly kinds: Readonly<Record<F, FilterFieldKind>>
  /** Qualified column of each field, e.g. `messages.peer_id`. */
  readonly columns: Readonly<Record<F, string>>
  /** The columns `observableBy` needs; only message rows have them. */
  readonly messageColumns?: {
    readonly workspaceId: string
    readonly sessionId: string
    readonly createdAt: string
  }
}

/**
 * The SQL an engine writes for the parts of a filter that differ between engines; everything else (the
 * checks, the tree, comparisons, `in`, null tests, `observableBy`) is shared. `path` is a checked key path.
 */
export interface FilterDialect {
  /** `ref` differs from `value`, a NULL counting as a value. */
  notEqual(ref: RawBuilder<unknown>, value: string | number): Condition
  /** `ref` contains `text`, case-insensitively. */
  containsText(ref: RawBuilder<unknown>, text: string): Condition
  /** The JSON id list `ref` holds `id`. */
  hasId(ref: RawBuilder<unknown>, id: string): Condition
  /** The JSON id list `ref` is empty. */
  noIds(ref: RawBuilder<unknown>): Condition
  /** An unknown (NULL) inner result counts as "does not match", so the NOT of it matches. */
  not(inner: Condition): Condition
  jsonIs(ref: RawBuilder<unknown>, path: readonly string[], type: 'object' | 'array'): Condition
  jsonEquals(ref: RawBuilder<unknown>, path: readonly string[], value: JsonScalar): Condition
  jsonPresent(ref: RawBuilder<unknown>, path: readonly string[]): Condition
  jsonHas(ref: RawBuilder<unknown>, path: readonly string[], value: JsonScalar): Condition
  jsonContainsText(ref: RawBuilder<unknown>, path: readonly string[], text: string): Condition
  jsonCompare(
    ref: RawBuilder<unknown>,
    path: readonly string[],
    comparison: string,
    value: number | string,
  ): Condition
}

/**
 * Turns a {@link Filter} into one SQLite condition (JSON through `json_type`, `json_extract`, `json_each`).
 * Every operand is a bound parameter. A filter that names an unknown field, compares a field with a value of
 * the wrong type or nests absurdly deep throws `StoreError('INVALID_INPUT')`.
 */
export function _sqliteFilter<F extends string>(
  target: FilterTarget<F>,
  filter: Filter<F> | undefined,
): Condition {
  return _translateFilter(SQLITE_DIALECT, target, filter)
}

/** Turns a {@link Filter} into one condition in `dialect`'s SQL (see {@link _sqliteFilter}). */
export function _translateFilter<F extends string>(
  dialect: FilterDialect,
  target: FilterTarget<F>,
  filter: Filter<F> | undefined,
): Condition {
  return filter === undefined ? TRUE : condition(dialect, target, filter, 0)
}

function condition<F extends string>(
  dialect: FilterDialect,
  target: FilterTarget<F>,
  filter: Filter<F>,
  depth: number,
): Condition {
  if (depth > MAX_NESTING) invalid(`a ${target.name} filter is nested more than ${MAX_NESTING} levels deep`)
  if (typeof filter !== 'object' || filter === null) invalid(`a ${target.name} filter must be an object`)
  switch (filter.op) {
    case 'and':
      return and(list(filter.filters, 'and').map((part) => condition(dialect, target, part, depth + 1)))
    case 'or':
      return or(list(filter.filters, 'or').map((part) => condition(dialect, target, part, depth + 1)))
    case 'not':
      return dialect.not(condition(dialect, target, filter.filter, depth + 1))
    case 'eq':
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const ref = column(target, filter.field, PLAIN)
      const value = operand(target, filter.field, filter.value)
      return sql<SqlBool>`(${ref} ${sql.raw(COMPARISONS[filter.op])} ${value})`
    }
    case 'ne': {
      const ref = column(target, filter.field, PLAIN)
      return dialect.notEqual(ref, operand(target, filter.field, filter.value))
    }
    case 'in': {
      const ref = column(target, filter.field, PLAIN)
      const values = list(filter.values, 'in').map((value) => operand(target, filter.field, value))
      if (values.length === 0) return FALSE
      return sql<SqlBool>`(${ref} IN (${sql.join(values)}))`
    }
    case 'isNull':
      return sql<SqlBool>`(${column(target, filter.field, PLAIN)} IS NULL)`
    case 'notNull':
      return sql<SqlBool>`(${column(target, filter.field, PLAIN)} IS NOT NULL)`
    case 'containsText': {
      const ref = column(target, filter.field, ['text'])
      return dialect.containsText(ref, text(filter.text))
    }
    case 'hasId':
      return dialect.hasId(column(target, filter.field, ['ids']), text(filter.id))
    case 'noIds':
      return dialect.noIds(column(target, filter.field, ['ids']))
    case 'observableBy':
      return observableBy(target, text(filter.peerId))
    default:
      return jsonCondition(dialect, target, filter)
  }
}

function jsonCondition<F extends string>(
  dialect: FilterDialect,
  target: FilterTarget<F>,
  filter: JsonFilter<F>,
): Condition {
  const ref = column(target, filter.field, ['json'])
  const path = checkedPath(filter.path)
  switch (filter.op) {
    case 'jsonIs':
      if (filter.type !== 'object' && filter.type !== 'array')
        invalid('jsonIs takes the type object or array')
      return dialect.jsonIs(ref, path, filter.type)
    case 'jsonEquals':
      return dialect.jsonEquals(ref, path, scalar(filter.value))
    case 'jsonPresent':
      return dialect.jsonPresent(ref, path)
    case 'jsonHas':
      return dialect.jsonHas(ref, path, scalar(filter.value))
    case 'jsonContainsText':
      return dialect.jsonContainsText(ref, path, text(filter.text))
    case 'jsonCompare': {
      const comparison = COMPARISONS[filter.compare] ?? invalid('jsonCompare takes gt, gte, lt or lte')
      if (
        (typeof filter.value === 'number' && Number.isFinite(filter.value)) ||
        typeof filter.value === 'string'
      )
        return dialect.jsonCompare(ref, path, comparison, filter.value)
      return invalid('jsonCompare takes a number or a string')
    }
    default:
      return invalid(`unknown filter operator '${String((filter as { op?: unknown }).op)}'`)
  }
}

const SQLITE_DIALECT: FilterDialect = {
  notEqual: (ref, value) => sql<SqlBool>`(${ref} IS NOT ${value})`,
  containsText: (ref, text) => sql<SqlBool>`(instr(lower(${ref}), lower(${text})) > 0)`,
  hasId: (ref, id) => sql<SqlBool>`(EXISTS (SELECT 1 FROM json_each(${ref}) WHERE value = ${id}))`,
  noIds: (ref) => sql<SqlBool>`(json_array_length(${ref}) = 0)`,
  not: (inner) => sql<SqlBool>`(coalesce(${inner}, 0) = 0)`,
  jsonIs: (ref, path, type) => sql<SqlBool>`(json_type(${ref}, ${jsonPath(path)}) = ${type})`,
  jsonEquals: (ref, path, value) => jsonEquals(ref, jsonPath(path), value),
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

function and(parts: readonly Condition[]): Condition {
  if (parts.length === 0) return TRUE
  if (parts.length === 1) return parts[0]!
  return sql<SqlBool>`(${sql.join(parts, sql` AND `)})`
}

function or(parts: readonly Condition[]): Condition {
  if (parts.length === 0) return FALSE
  return sql<SqlBool>`(${sql.join(parts, sql` OR `)})`
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

function jsonHas(ref: RawBuilder<unknown>, path: string, value: JsonScalar): Condition {
  const elements = sql`json_each(${ref}, ${path})`
  if (value === null) return sql<SqlBool>`(EXISTS (SELECT 1 FROM ${elements} WHERE type = 'null'))`
  if (typeof value === 'boolean') {
    return sql<SqlBool>`(EXISTS (SELECT 1 FROM ${elements} WHERE type = ${value ? 'true' : 'false'}))`
  }
  return sql<SqlBool>`(EXISTS (SELECT 1 FROM ${elements} WHERE type <> 'object' AND value = ${value}))`
}

function observableBy<F extends string>(target: FilterTarget<F>, peerId: string): Condition {
  const m = target.messageColumns ?? invalid(`observableBy filters messages, not ${target.name}`)
  const at = sql.ref(m.createdAt)
  return sql<SqlBool>`(EXISTS (SELECT 1 FROM session_peers sp
    WHERE sp.workspace_id = ${sql.ref(m.workspaceId)} AND sp.session_id = ${sql.ref(m.sessionId)}
    AND sp.peer_id = ${peerId} AND ${at} >= sp.joined_at AND (sp.left_at IS NULL OR ${at} <= sp.left_at)))`
}

function column<F extends string>(
  target: FilterTarget<F>,
  field: F,
  kinds: readonly FilterFieldKind[],
): RawBuilder<unknown> {
  const kind = Object.hasOwn(target.kinds, field) ? target.kinds[field] : undefined
  if (kind === undefined) invalid(`${target.name} cannot be filtered on '${String(field)}'`)
  if (!kinds.includes(kind))
    invalid(`'${field}' of ${target.name} is a ${kind} field; it cannot be compared that way`)
  return sql.ref(target.columns[field])
}

/** Checks a value against the field's kind and converts it to the stored form. */
function operand<F extends string>(target: FilterTarget<F>, field: F, value: FilterValue): string | number {
  const kind = target.kinds[field]
  if (kind === 'number' && typeof value === 'number' && Number.isFinite(value)) return value
  if (kind === 'boolean' && typeof value === 'boolean') return value ? 1 : 0
  if (kind === 'text' && typeof value === 'string') return value
  if (kind === 'time') {
    const time = parseIsoTime(value)
    if (time !== null) return time
  }
  return invalid(`'${field}' of ${target.name} cannot be compared with ${JSON.stringify(value)}`)
}

/** A JSON key path every engine can take: non-empty keys without quotes or backslashes. */
function checkedPath(path: readonly string[]): readonly string[] {
  if (!Array.isArray(path) || path.length === 0) invalid('a JSON filter needs a non-empty key path')
  for (const key of path) {
    if (typeof key !== 'string' || key.length === 0 || /["\\]/.test(key)) {
      invalid(`the JSON key ${JSON.stringify(key)} cannot be filtered on`)
    }
  }
  return path
}

/** SQLite's path syntax, `$."a"."b"`, of a checked path. */
function jsonPath(path: readonly string[]): string {
  return `$${path.map((key) => `."${key}"`).join('')}`
}

function scalar(value: unknown): JsonScalar {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return value as JsonScalar
  return invalid('a JSON filter compares scalars (string, number, boolean or null)')
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : invalid('a filter text must be a string')
}

function list<T>(value: readonly T[], op: string): readonly T[] {
  return Array.isArray(value) ? value : invalid(`'${op}' takes a list`)
}

function invalid(message: string): never {
  throw new StoreError('INVALID_INPUT', message)
}
