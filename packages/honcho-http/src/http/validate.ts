import type { Context } from 'hono'
import * as v from 'valibot'
import { HonchoHttpError, type ValidationIssue } from '../errors'
import { nestedDeeperThan, stripNul } from '../wire/sanitize'
import { JSON_NESTING_LIMIT } from './limits'

type AnySchema = v.GenericSchema<unknown, unknown>

/**
 * Reads a JSON body, refusing one nested past {@link JSON_NESTING_LIMIT} and stripping NUL characters. An
 * empty body (bodiless POSTs with a JSON content type) reads as `undefined`.
 */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text()
  if (text.trim() === '') return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new HonchoHttpError('VALIDATION', 'JSON decode error', {
      cause: error,
      issues: [
        {
          type: 'json_invalid',
          loc: ['body', 0],
          msg: 'JSON decode error',
          input: {},
          ctx: { error: error instanceof Error ? error.message : String(error) },
        },
      ],
    })
  }
  // JSON can carry a NUL only as the escape \u0000: without one, nothing needs stripping.
  return checkedJson(parsed, ['body'], text.includes('\\u0000'))
}

/**
 * A parsed JSON value made safe to read: refused (422, located under `loc` and the offending top-level key)
 * when it nests past {@link JSON_NESTING_LIMIT}, NUL characters stripped when `mayHoldNul`.
 */
export function checkedJson(value: unknown, loc: readonly (string | number)[], mayHoldNul = true): unknown {
  if (nestedDeeperThan(value, JSON_NESTING_LIMIT)) {
    const msg = `JSON may be nested at most ${JSON_NESTING_LIMIT} levels deep`
    const entries = typeof value === 'object' && value !== null ? Object.entries(value) : []
    const culprit = entries.find(([, item]) => nestedDeeperThan(item, JSON_NESTING_LIMIT - 1))?.[0]
    const key = culprit === undefined ? [] : [Array.isArray(value) ? Number(culprit) : culprit]
    throw new HonchoHttpError('VALIDATION', msg, {
      issues: [{ type: 'value_error', loc: [...loc, ...key], msg, input: null }],
    })
  }
  return mayHoldNul ? stripNul(value) : value
}

/** Validates `input` with a valibot schema; failures become a FastAPI-style 422 list located under `where`. */
export function parseWith<S extends AnySchema>(
  schema: S,
  input: unknown,
  where: 'body' | 'query' | 'path',
): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true })
  if (result.success) return result.output
  const issues = result.issues.map((issue) => toFastApiIssue(issue, where))
  throw new HonchoHttpError('VALIDATION', issues[0]?.msg ?? 'Invalid request', { issues })
}

/** Validates the JSON body (absent → `{}` unless the schema accepts `undefined`). */
export async function jsonBody<S extends AnySchema>(c: Context, schema: S): Promise<v.InferOutput<S>> {
  const raw = await readJson(c)
  const input = raw === undefined && !v.safeParse(schema, undefined).success ? {} : raw
  return parseWith(schema, input, 'body')
}

/** Validates the query string; repeated keys become arrays only for the names in `arrays`. */
export function queryOf<S extends AnySchema>(
  c: Context,
  schema: S,
  arrays: readonly string[] = [],
): v.InferOutput<S> {
  const input: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(c.req.queries())) {
    input[key] = arrays.includes(key) ? value : value.at(-1)
  }
  return parseWith(schema, input, 'query')
}

function toFastApiIssue(issue: v.BaseIssue<unknown>, where: string): ValidationIssue {
  const loc: (string | number)[] = [where]
  for (const item of issue.path ?? []) {
    if (typeof item.key === 'string' || typeof item.key === 'number') loc.push(item.key)
  }
  const missing = issue.input === undefined && (issue.kind === 'schema' || issue.type === 'non_optional')
  if (missing) return { type: 'missing', loc, msg: 'Field required', input: parentInput(issue) }
  return { type: fastApiType(issue), loc, msg: issue.message, input: issue.input }
}

function parentInput(issue: v.BaseIssue<unknown>): unknown {
  const last = issue.path?.at(-1)
  return last && 'input' in last ? last.input : null
}

const TYPE_NAMES: Record<string, string> = {
  string: 'string_type',
  number: 'float_type',
  boolean: 'bool_type',
  object: 'dict_type',
  looseObject: 'dict_type',
  strictObject: 'dict_type',
  record: 'dict_type',
  array: 'list_type',
  integer: 'int_type',
  picklist: 'enum',
  literal: 'literal_error',
  regex: 'string_pattern_mismatch',
  min_value: 'greater_than_equal',
  max_value: 'less_than_equal',
  min_length: 'too_short',
  max_length: 'too_long',
  check: 'value_error',
  custom: 'value_error',
  union: 'union_error',
  variant: 'union_error',
}

function fastApiType(issue: v.BaseIssue<unknown>): string {
  if ((issue.type === 'min_length' || issue.type === 'max_length') && typeof issue.input === 'string') {
    return issue.type === 'min_length' ? 'string_too_short' : 'string_too_long'
  }
  return TYPE_NAMES[issue.type] ?? 'value_error'
}
