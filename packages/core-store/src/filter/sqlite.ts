import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { StoreError } from '../store/errors'
import { parseIsoTime } from '../time'
import type { Filter, FilterFieldKind, FilterValue, JsonFilter, JsonScalar } from './types'

type Condition = RawBuilder<SqlBool>

/** Deepest `and`/`or`/`not` nesting a filter may reach: far beyond any real filter, short of the stack. */
const MAX_NESTING = 64

const TRUE: Condition = sql<SqlBool>`1`
const FALSE: Condition = sql<SqlBool>`0`
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
 * Turns a {@link Filter} into one SQLite condition (JSON through `json_type`, `json_extract`, `json_each`).
 * Every operand is a bound parameter. A filter that names an unknown field, compares a field with a value of
 * the wrong type or nests absurdly deep throws `StoreError('INVALID_INPUT')`.
 */
export function _sqliteFilter<F extends string>(
  target: FilterTarget<F>,
  filter: Filter<F> | undefined,
): Condition {
  return filter === undefined ? TRUE : condition(target, filter, 0)
}

function condition<F extends string>(target: FilterTarget<F>, filter: Filter<F>, depth: number): Condition {
  if (depth > MAX_NESTING) invalid(`a ${target.name} filter is nested more than ${MAX_NESTING} levels deep`)
  if (typeof filter !== 'object' || filter === null) invalid(`a ${target.name} filter must be an object`)
  switch (filter.op) {
    case 'and':
      return and(list(filter.filters, 'and').map((part) => condition(target, part, depth + 1)))
    case 'or':
      return or(list(filter.filters, 'or').map((part) => condition(target, part, depth + 1)))
    case 'not':
      return not(condition(target, filter.filter, depth + 1))
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
      return sql<SqlBool>`(${ref} IS NOT ${operand(target, filter.field, filter.value)})`
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
      return sql<SqlBool>`(instr(lower(${ref}), lower(${text(filter.text)})) > 0)`
    }
    case 'hasId':
      return idIn(column(target, filter.field, ['ids']), text(filter.id))
    case 'noIds':
      return sql<SqlBool>`(json_array_length(${column(target, filter.field, ['ids'])}) = 0)`
    case 'observableBy':
      return observableBy(target, text(filter.peerId))
    default:
      return jsonCondition(target, filter)
  }
}

function jsonCondition<F extends string>(target: FilterTarget<F>, filter: JsonFilter<F>): Condition {
  const ref = column(target, filter.field, ['json'])
  const path = jsonPath(filter.path)
  const type = sql`json_type(${ref}, ${path})`
  switch (filter.op) {
    case 'jsonIs':
      if (filter.type !== 'object' && filter.type !== 'array')
        invalid('jsonIs takes the type object or array')
      return sql<SqlBool>`(${type} = ${filter.type})`
    case 'jsonEquals':
      return jsonEquals(ref, path, scalar(filter.value))
    case 'jsonPresent':
      return sql<SqlBool>`(${type} IS NOT NULL AND ${type} <> 'null')`
    case 'jsonHas':
      return jsonHas(ref, path, scalar(filter.value))
    case 'jsonContainsText': {
      const extracted = sql`lower(json_extract(${ref}, ${path}))`
      return sql<SqlBool>`(${type} = 'text' AND instr(${extracted}, lower(${text(filter.text)})) > 0)`
    }
    case 'jsonCompare': {
      const comparison = sql.raw(
        COMPARISONS[filter.compare] ?? invalid('jsonCompare takes gt, gte, lt or lte'),
      )
      const extracted = sql`json_extract(${ref}, ${path})`
      if (typeof filter.value === 'number' && Number.isFinite(filter.value)) {
        const number = sql`CAST(${extracted} AS REAL)`
        return sql<SqlBool>`(${type} IN ('integer', 'real') AND ${number} ${comparison} ${filter.value})`
      }
      if (typeof filter.value === 'string') {
        return sql<SqlBool>`(${type} = 'text' AND ${extracted} ${comparison} ${filter.value})`
      }
      return invalid('jsonCompare takes a number or a string')
    }
    default:
      return invalid(`unknown filter operator '${String((filter as { op?: unknown }).op)}'`)
  }
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

/** An unknown inner result counts as "does not match", so the NOT of it matches. */
function not(inner: Condition): Condition {
  return sql<SqlBool>`(coalesce(${inner}, 0) = 0)`
}

function idIn(ref: RawBuilder<unknown>, id: string): Condition {
  return sql<SqlBool>`(EXISTS (SELECT 1 FROM json_each(${ref}) WHERE value = ${id}))`
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

function jsonPath(path: readonly string[]): string {
  if (!Array.isArray(path) || path.length === 0) invalid('a JSON filter needs a non-empty key path')
  let out = '$'
  for (const key of path) {
    if (typeof key !== 'string' || key.length === 0 || /["\\]/.test(key)) {
      invalid(`the JSON key ${JSON.stringify(key)} cannot be filtered on`)
    }
    out += `."${key}"`
  }
  return out
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
