import { isPlainObject } from './sanitize'

/** The limits of Honcho's `json_response_schema_to_pydantic`: a hostile schema is refused, never walked. */
const MAX_DEPTH = 20
const MAX_NODES = 500

const UNSUPPORTED_KEYS = ['$defs', 'definitions', 'allOf', 'not', 'if', 'then', 'else', 'patternProperties']
const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null'])
const REF_PREFIXES = ['#/$defs/', '#/definitions/']

class SchemaProblem extends Error {}

interface Walk {
  readonly defs: Map<string, unknown>
  readonly refStack: string[]
  nodes: number
}

const fail = (message: string, path: string): never => {
  throw new SchemaProblem(`${message} at ${path || 'root'}`)
}
const child = (path: string, segment: string) => (path ? `${path}.${segment}` : segment)

/**
 * Why a chat `response_format` is refused, or null when it is usable. The accepted JSON Schema subset is
 * Honcho's (an object root; primitives, objects, arrays, enums, anyOf/oneOf, type lists, `$ref` into
 * root-level `$defs`/`definitions` without recursion), so a schema Honcho refuses is refused here too,
 * with or without an LLM configured.
 */
export function responseFormatProblem(schema: unknown): string | null {
  try {
    if (!isPlainObject(schema)) fail('response_format must be a JSON Schema object', '')
    const { $schema: _ignored, ...root } = schema as Record<string, unknown>
    const walk: Walk = { defs: extractDefs(root), refStack: [], nodes: 0 }
    const objectRoot =
      root.type === 'object' || (root.type === undefined && ('properties' in root || '$ref' in root))
    if (!objectRoot) fail("root schema must have type 'object'", '')
    if (convert(root, '', walk, 0) !== 'object') fail("root schema must have type 'object'", '')
    return null
  } catch (error) {
    if (error instanceof SchemaProblem) return `Invalid response_format: ${error.message}`
    throw error
  }
}

function extractDefs(root: Record<string, unknown>): Map<string, unknown> {
  const defs = new Map<string, unknown>()
  for (const key of ['$defs', 'definitions']) {
    const raw = root[key]
    delete root[key]
    if (raw === undefined || raw === null) continue
    if (!isPlainObject(raw)) fail(`'${key}' must be an object`, '')
    for (const [name, definition] of Object.entries(raw as Record<string, unknown>)) {
      if (name === '') fail(`'${key}' definition names must be non-empty strings`, '')
      if (defs.has(name)) fail(`definition '${name}' appears in both '$defs' and 'definitions'`, '')
      defs.set(name, definition)
    }
  }
  return defs
}

/** Checks one node and returns its kind ('object' for an object node, else another label). */
function convert(raw: unknown, path: string, walk: Walk, depth: number): string {
  if (isPlainObject(raw) && '$ref' in raw) return resolveRef(raw, path, walk, depth)
  const node = validateNode(raw, path, walk, depth)
  if ('enum' in node) return checkEnum(node.enum, path)
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (!(key in node)) continue
    const members = node[key]
    if (!Array.isArray(members) || members.length === 0) fail(`'${key}' must be a non-empty array`, path)
    ;(members as unknown[]).forEach((member, i) => {
      convert(member, child(path, `${key}[${i}]`), walk, depth + 1)
    })
    return 'union'
  }
  const type = node.type ?? ('properties' in node ? 'object' : undefined)
  if (Array.isArray(type)) {
    if (type.length === 0) fail("'type' array must not be empty", path)
    for (const entry of type) convert({ ...node, type: entry }, path, walk, depth)
    return 'union'
  }
  if (type === 'object') return checkObject(node, path, walk, depth)
  if (type === 'array') {
    if (node.items !== undefined) convert(node.items, child(path, 'items'), walk, depth + 1)
    return 'array'
  }
  if (typeof type === 'string' && PRIMITIVE_TYPES.has(type)) return type
  if (type === undefined) fail('schema has no recognizable type', path)
  return fail(`unsupported type '${String(type)}'`, path)
}

function validateNode(raw: unknown, path: string, walk: Walk, depth: number): Record<string, unknown> {
  walk.nodes += 1
  if (walk.nodes > MAX_NODES) throw new SchemaProblem(`schema exceeds the maximum of ${MAX_NODES} nodes`)
  if (depth > MAX_DEPTH) throw new SchemaProblem(`schema nesting exceeds the maximum depth of ${MAX_DEPTH}`)
  if (typeof raw === 'boolean') fail('boolean schemas are not supported', path)
  if (!isPlainObject(raw)) fail('schema must be an object', path)
  const node = raw as Record<string, unknown>
  for (const key of UNSUPPORTED_KEYS) if (key in node) fail(`unsupported construct '${key}'`, path)
  if (isPlainObject(node.additionalProperties))
    fail('additionalProperties with a schema is not supported', path)
  return node
}

function resolveRef(node: Record<string, unknown>, path: string, walk: Walk, depth: number): string {
  const ref = node.$ref
  if (typeof ref !== 'string') return fail("'$ref' must be a string", path)
  const prefix = REF_PREFIXES.find((p) => ref.startsWith(p))
  const name = prefix ? ref.slice(prefix.length) : ''
  if (!name || /[/~%]/.test(name)) {
    fail(
      `unsupported $ref '${ref}': only '#/$defs/<name>' or '#/definitions/<name>' references are supported`,
      path,
    )
  }
  if (!walk.defs.has(name)) fail(`$ref '${ref}' points to an unknown definition`, path)
  if (walk.refStack.includes(name)) {
    const cycle = [...walk.refStack.slice(walk.refStack.indexOf(name)), name].join(' -> ')
    fail(`recursive $ref is not supported (cycle: ${cycle})`, path)
  }
  const { $ref: _ref, ...siblings } = node
  const target = walk.defs.get(name)
  const resolved = isPlainObject(target) ? { ...target, ...siblings } : target
  walk.refStack.push(name)
  try {
    return convert(resolved, path, walk, depth)
  } finally {
    walk.refStack.pop()
  }
}

function checkEnum(values: unknown, path: string): string {
  if (!Array.isArray(values) || values.length === 0) fail("'enum' must be a non-empty array", path)
  for (const value of values as unknown[]) {
    const literal = value === null || ['string', 'boolean'].includes(typeof value) || Number.isInteger(value)
    if (!literal) fail('enum values must be strings, integers, booleans, or null', path)
  }
  return 'enum'
}

function checkObject(node: Record<string, unknown>, path: string, walk: Walk, depth: number): string {
  const properties = node.properties ?? {}
  if (!isPlainObject(properties)) fail("'properties' must be an object", path)
  const required = node.required ?? []
  if (!Array.isArray(required) || required.some((entry) => typeof entry !== 'string')) {
    fail("'required' must be an array of strings", path)
  }
  for (const [key, schema] of Object.entries(properties as Record<string, unknown>)) {
    if (key === '') fail('property names must be non-empty strings', path)
    convert(schema, child(path, `properties.${key}`), walk, depth + 1)
  }
  return 'object'
}
