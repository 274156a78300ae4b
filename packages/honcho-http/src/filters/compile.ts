import {
  checkFilterLimits,
  type Filter,
  type FilterValue,
  type JsonScalar,
  parseIsoTime,
} from '@hymem/core-store'
import { HonchoHttpError } from '../errors'
import { isPlainObject } from '../wire/sanitize'
import type { FilterResource, WireField } from './types'

/** Deepest AND/OR/NOT (and metadata) nesting a filter may use. */
export const MAX_FILTER_DEPTH = 5
/**
 * Most filters one AND/OR/NOT takes, and most keys one filter or metadata object has (they AND together):
 * wider alternatives are an `in`.
 */
export const MAX_FILTER_BRANCHES = 100
/** Most values one `in` list (or metadata array) takes: Honcho's own cap on a chat's `session_id` list. */
export const MAX_FILTER_VALUES = 1000

const OPERATORS = new Set(['gte', 'lte', 'gt', 'lt', 'ne', 'in', 'contains', 'icontains'])
const LOGIC = new Set(['AND', 'OR', 'NOT'])
const COMPARISONS = { gte: 'gte', lte: 'lte', gt: 'gt', lt: 'lt' } as const

/**
 * Compiles Honcho's filter DSL into one store filter over the resource's allowed fields, or `null` when the
 * filter imposes nothing. Unknown columns and operators, bad types, over-deep nesting and filters past
 * {@link MAX_FILTER_BRANCHES}, {@link MAX_FILTER_VALUES} or the store's `FILTER_LIMITS` throw (422).
 */
export function compileFilter<F extends string>(
  resource: FilterResource<F>,
  filters: unknown,
): Filter<F> | null {
  if (filters === undefined || filters === null) return null
  if (!isPlainObject(filters)) fail('filters must be an object')
  const compiled = compileObject(resource, filters, 1)
  checkFilterLimits(compiled ?? undefined, resource.name)
  return compiled
}

/** ANDs filters, skipping nulls; nothing left matches everything. */
export function andAll<F extends string>(filters: readonly (Filter<F> | null | undefined)[]): Filter<F> {
  const parts = filters.filter((f): f is Filter<F> => f !== null && f !== undefined)
  return parts.length === 1 ? parts[0]! : { op: 'and', filters: parts }
}

function fail(message: string): never {
  throw new HonchoHttpError('VALIDATION', message)
}

function compileObject<F extends string>(
  resource: FilterResource<F>,
  filter: Record<string, unknown>,
  depth: number,
): Filter<F> | null {
  if (depth > MAX_FILTER_DEPTH) fail(`filters may be nested at most ${MAX_FILTER_DEPTH} levels deep`)
  const parts: Filter<F>[] = []
  for (const [key, value] of branches(filter, 'a filter object')) {
    const part = LOGIC.has(key)
      ? compileLogic(resource, key, value, depth)
      : compileKey(resource, key, value, depth)
    if (part) parts.push(part)
  }
  return parts.length === 0 ? null : andAll(parts)
}

function compileLogic<F extends string>(
  resource: FilterResource<F>,
  op: string,
  value: unknown,
  depth: number,
): Filter<F> | null {
  const items = Array.isArray(value)
    ? value
    : isPlainObject(value)
      ? [value]
      : fail(`${op} takes a list of filters`)
  if (items.length > MAX_FILTER_BRANCHES) {
    fail(`${op} takes at most ${MAX_FILTER_BRANCHES} filters, got ${items.length}`)
  }
  const compiled: Filter<F>[] = []
  for (const item of items) {
    if (!isPlainObject(item)) fail(`${op} takes a list of filter objects`)
    compiled.push(compileObject(resource, item, depth + 1) ?? andAll<F>([]))
  }
  if (compiled.length === 0) return null
  if (op === 'AND') return andAll(compiled)
  if (op === 'OR') return { op: 'or', filters: compiled }
  return { op: 'not', filter: andAll(compiled) }
}

function compileKey<F extends string>(
  resource: FilterResource<F>,
  key: string,
  value: unknown,
  depth: number,
): Filter<F> | null {
  const special = resource.special?.[key]
  if (special) return value === '*' ? null : special(value)
  const wire = Object.hasOwn(resource.fields, key) ? resource.fields[key] : undefined
  if (!wire) fail(`Column '${key}' is not allowed for filtering ${resource.name}`)
  if (value === '*') return null
  if (wire.kind === 'json') return compileJson(key, wire, value, depth)
  if (wire.kind === 'ids') return compileIdList(key, wire, value)
  const { field } = wire
  if (value === null) return { op: 'isNull', field }
  if (Array.isArray(value)) {
    return { op: 'in', field, values: valueList(key, value).map((item) => operand(key, wire, item)) }
  }
  if (isPlainObject(value)) return compileOperators(key, wire, value)
  return { op: 'eq', field, value: operand(key, wire, value) }
}

function compileOperators<F extends string>(
  key: string,
  wire: WireField<F>,
  ops: Record<string, unknown>,
): Filter<F> {
  const { field } = wire
  const parts: Filter<F>[] = []
  for (const [op, raw] of Object.entries(ops)) {
    if (!OPERATORS.has(op)) fail(`Unsupported operator '${op}' on '${key}'`)
    if (op === 'ne' && raw === null) {
      parts.push({ op: 'notNull', field })
      continue
    }
    if (raw === null) fail(`Operator '${op}' on '${key}' does not accept null`)
    if (op === 'in') {
      if (!Array.isArray(raw)) fail(`Operator 'in' on '${key}' takes a list`)
      parts.push({ op: 'in', field, values: valueList(key, raw).map((item) => operand(key, wire, item)) })
    } else if (op === 'contains' || op === 'icontains') {
      if (wire.kind !== 'text') fail(`Operator '${op}' needs a text column, not '${key}'`)
      if (typeof raw !== 'string') fail(`Operator '${op}' on '${key}' takes a string`)
      parts.push({ op: 'containsText', field, text: raw })
    } else if (op === 'ne') {
      parts.push({ op: 'ne', field, value: operand(key, wire, raw) })
    } else {
      parts.push({ op: COMPARISONS[op as keyof typeof COMPARISONS], field, value: operand(key, wire, raw) })
    }
  }
  return andAll(parts)
}

/** Checks an operand against the field's type and converts it to the stored form. */
function operand<F extends string>(key: string, wire: WireField<F>, value: unknown): FilterValue {
  switch (wire.kind) {
    case 'text':
      if (wire.values && (typeof value !== 'string' || !wire.values.includes(value))) {
        fail(`'${key}' must be one of ${wire.values.join(', ')}, got ${describe(value)}`)
      }
      if (typeof value !== 'string') fail(`'${key}' takes a string, got ${describe(value)}`)
      return value
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value))
        fail(`'${key}' takes a number, got ${describe(value)}`)
      return value
    case 'boolean':
      if (typeof value !== 'boolean') fail(`'${key}' takes a boolean, got ${describe(value)}`)
      return value
    case 'time':
      return isoDate(key, value)
    default:
      return fail(`'${key}' cannot be compared directly`)
  }
}

/** Parses an ISO date or date-time (naive = UTC) into the stored `toISOString()` form. */
export function isoDate(key: string, value: unknown): string {
  const time = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? parseIsoTime(value) : null
  if (time === null) fail(`'${key}' takes an ISO-8601 date, got ${describe(value)}`)
  return time
}

/** The entries of a filter object, at most {@link MAX_FILTER_BRANCHES} of them. */
function branches(filter: Record<string, unknown>, what: string): [string, unknown][] {
  const entries = Object.entries(filter)
  if (entries.length > MAX_FILTER_BRANCHES) {
    fail(`${what} may have at most ${MAX_FILTER_BRANCHES} keys, got ${entries.length}`)
  }
  return entries
}

/** A list of operands, at most {@link MAX_FILTER_VALUES} of them. */
function valueList(key: string, list: readonly unknown[]): readonly unknown[] {
  if (list.length > MAX_FILTER_VALUES) {
    fail(`a list for '${key}' may hold at most ${MAX_FILTER_VALUES} values, got ${list.length}`)
  }
  return list
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  return typeof value === 'string' ? `'${value.slice(0, 50)}'` : typeof value
}

/** `source_ids`: a string (or each string of a list) must be an element of the stored id list. */
function compileIdList<F extends string>(key: string, wire: WireField<F>, value: unknown): Filter<F> {
  const { field } = wire
  if (value === null) return { op: 'noIds', field }
  const has = (raw: unknown): Filter<F>[] => {
    const list = Array.isArray(raw) ? valueList(key, raw) : [raw]
    for (const item of list) if (typeof item !== 'string') fail(`'${key}' takes ids (strings)`)
    return (list as string[]).map((id) => ({ op: 'hasId', field, id }))
  }
  if (isPlainObject(value)) {
    const parts: Filter<F>[] = []
    for (const [op, raw] of Object.entries(value)) {
      if (op === 'contains') parts.push(andAll(has(raw)))
      else if (op === 'in') parts.push({ op: 'or', filters: has(raw) })
      else fail(`Unsupported operator '${op}' on '${key}'`)
    }
    return andAll(parts)
  }
  return andAll(has(value))
}

function compileJson<F extends string>(
  key: string,
  wire: WireField<F>,
  value: unknown,
  depth: number,
): Filter<F> | null {
  if (value === null) fail(`'${key}' takes an object`)
  if (!isPlainObject(value)) fail(`'${key}' takes an object (containment) or per-key operators`)
  return jsonContainment(wire.field, [], value, depth)
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false
  const keys = Object.keys(value)
  return keys.length > 0 && keys.every((k) => OPERATORS.has(k))
}

function jsonContainment<F extends string>(
  field: F,
  base: readonly string[],
  filter: Record<string, unknown>,
  depth: number,
): Filter<F> | null {
  if (depth > MAX_FILTER_DEPTH) fail(`metadata filters may be nested at most ${MAX_FILTER_DEPTH} levels deep`)
  const parts: Filter<F>[] = []
  for (const [key, value] of branches(filter, 'a metadata filter object')) {
    if (value === '*') continue
    if (/["\\]/.test(key) || key.length === 0) fail(`metadata key '${key}' cannot be filtered on`)
    const path = [...base, key]
    if (isOperatorObject(value)) parts.push(jsonOperators(field, path, key, value))
    else if (isPlainObject(value)) {
      parts.push({ op: 'jsonIs', field, path, type: 'object' })
      const nested = jsonContainment(field, path, value, depth + 1)
      if (nested) parts.push(nested)
    } else if (Array.isArray(value)) {
      parts.push({ op: 'jsonIs', field, path, type: 'array' })
      for (const item of valueList(`metadata.${path.join('.')}`, value)) {
        if (isPlainObject(item) || Array.isArray(item))
          fail('metadata array containment takes scalar elements')
        parts.push({ op: 'jsonHas', field, path, value: item as JsonScalar })
      }
    } else parts.push({ op: 'jsonEquals', field, path, value: scalar(value) })
  }
  return parts.length === 0 ? null : andAll(parts)
}

/** A metadata operand; objects and lists compare as their string form, as they always have. */
function scalar(value: unknown): JsonScalar {
  return value === null || typeof value === 'number' || typeof value === 'boolean' ? value : String(value)
}

function jsonOperators<F extends string>(
  field: F,
  path: readonly string[],
  key: string,
  ops: Record<string, unknown>,
): Filter<F> {
  const parts: Filter<F>[] = []
  for (const [op, raw] of Object.entries(ops)) {
    if (op === 'ne') {
      parts.push(
        raw === null
          ? { op: 'jsonPresent', field, path }
          : { op: 'not', filter: { op: 'jsonEquals', field, path, value: scalar(raw) } },
      )
    } else if (raw === null) fail(`Operator '${op}' on metadata '${key}' does not accept null`)
    else if (op === 'in') {
      if (!Array.isArray(raw)) fail(`Operator 'in' on metadata '${key}' takes a list`)
      parts.push({
        op: 'jsonIn',
        field,
        path,
        values: valueList(`metadata.${path.join('.')}`, raw).map(scalar),
      })
    } else if (op === 'contains' || op === 'icontains') {
      if (typeof raw === 'string') {
        parts.push({
          op: 'or',
          filters: [
            { op: 'jsonContainsText', field, path, text: raw },
            {
              op: 'and',
              filters: [
                { op: 'jsonIs', field, path, type: 'array' },
                { op: 'jsonHas', field, path, value: raw },
              ],
            },
          ],
        })
      } else if (typeof raw === 'number' || typeof raw === 'boolean') {
        parts.push({ op: 'jsonHas', field, path, value: raw })
      } else fail(`Operator '${op}' on metadata '${key}' takes a string or number`)
    } else {
      const compare = COMPARISONS[op as keyof typeof COMPARISONS]
      if ((typeof raw === 'number' && Number.isFinite(raw)) || typeof raw === 'string') {
        parts.push({ op: 'jsonCompare', field, path, compare, value: raw })
      } else fail(`Operator '${op}' on metadata '${key}' takes a number or string`)
    }
  }
  return andAll(parts)
}
