import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { StoreError } from '../kernel/errors'
import { parseIsoTime } from '../kernel/iso-time'
import { checkFilterLimits } from './limits'
import type { Filter, FilterFieldKind, FilterValue, JsonFilter, JsonScalar } from './types'

type Condition = RawBuilder<SqlBool>

/** Written as comparisons, so they are booleans on PostgreSQL too (where `WHERE 1` is refused). */
const TRUE: Condition = sql<SqlBool>`(1 = 1)`
const FALSE: Condition = sql<SqlBool>`(1 = 0)`
const COMPARISONS = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const
/** Field kinds compared as plain column values. */
export type PlainFieldKind = Exclude<FilterFieldKind, 'json' | 'ids'>
const PLAIN: readonly PlainFieldKind[] = ['text', 'number', 'boolean', 'time']

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
  /** `ref` equals one of `values` (two or more, all of one field `kind`), bound as one parameter. */
  inList(ref: RawBuilder<unknown>, values: readonly (string | number)[], kind: PlainFieldKind): Condition
  /** The JSON id list `ref` holds `id`. */
  hasId(ref: RawBuilder<unknown>, id: string): Condition
  /** The JSON id list `ref` is empty. */
  noIds(ref: RawBuilder<unknown>): Condition
  /** An unknown (NULL) inner result counts as "does not match", so the NOT of it matches. */
  not(inner: Condition): Condition
  jsonIs(ref: RawBuilder<unknown>, path: readonly string[], type: 'object' | 'array'): Condition
  jsonEquals(ref: RawBuilder<unknown>, path: readonly string[], value: JsonScalar): Condition
  /** As `jsonEquals` to one of `values` (at least one), the list bound as one parameter per JSON type. */
  jsonIn(ref: RawBuilder<unknown>, path: readonly string[], values: readonly JsonScalar[]): Condition
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
 * Turns a {@link Filter} into one condition in `dialect`'s SQL. Every operand is a bound parameter; `and`
 * and `or` become balanced trees, so no engine meets a chain as deep as the filter is wide. A filter past
 * `FILTER_LIMITS`, naming an unknown field or comparing a field with a value of the wrong type throws
 * `StoreError('INVALID_INPUT')`.
 */
export function _translateFilter<F extends string>(
  dialect: FilterDialect,
  target: FilterTarget<F>,
  filter: Filter<F> | undefined,
): Condition {
  if (filter === undefined) return TRUE
  checkFilterLimits(filter, target.name)
  return condition(dialect, target, filter)
}

/** Recursive, but only after `checkFilterLimits` bounded the nesting. */
function condition<F extends string>(
  dialect: FilterDialect,
  target: FilterTarget<F>,
  filter: Filter<F>,
): Condition {
  if (typeof filter !== 'object' || filter === null) invalid(`a ${target.name} filter must be an object`)
  switch (filter.op) {
    case 'and':
      return and(list(filter.filters, 'and').map((part) => condition(dialect, target, part)))
    case 'or':
      return or(list(filter.filters, 'or').map((part) => condition(dialect, target, part)))
    case 'not':
      return dialect.not(condition(dialect, target, filter.filter))
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
      if (values.length === 1) return sql<SqlBool>`(${ref} = ${values[0]})`
      return dialect.inList(ref, values, target.kinds[filter.field] as PlainFieldKind)
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
    case 'jsonIn': {
      const values = list(filter.values, 'jsonIn').map(scalar)
      return values.length === 0 ? FALSE : dialect.jsonIn(ref, path, values)
    }
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

function and(parts: readonly Condition[]): Condition {
  return parts.length === 0 ? TRUE : balanced(parts, sql` AND `)
}

function or(parts: readonly Condition[]): Condition {
  return parts.length === 0 ? FALSE : balanced(parts, sql` OR `)
}

/** `a AND b AND c …` would nest one level per part in the engine's parser; halves nest log2(parts). */
function balanced(parts: readonly Condition[], joiner: RawBuilder<unknown>): Condition {
  if (parts.length === 1) return parts[0]!
  const middle = Math.ceil(parts.length / 2)
  const left = balanced(parts.slice(0, middle), joiner)
  const right = balanced(parts.slice(middle), joiner)
  return sql<SqlBool>`(${left}${joiner}${right})`
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

function scalar(value: unknown): JsonScalar {
  if (typeof value === 'number' && !Number.isFinite(value)) invalid('a JSON filter compares finite numbers')
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
