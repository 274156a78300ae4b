/** A value a plain field is compared with. Times are ISO-8601 strings. */
export type FilterValue = string | number | boolean

/** A scalar inside a JSON field (`null` is JSON null, not "missing"). */
export type JsonScalar = string | number | boolean | null

/**
 * How a filterable field compares. `json` is a JSON object (metadata) reached by key paths; `ids` is a
 * JSON array of string ids.
 */
export type FilterFieldKind = 'text' | 'number' | 'boolean' | 'time' | 'json' | 'ids'

/**
 * A backend-neutral condition over one kind of row (messages, sessions, …), built by the layers above and
 * executed by a repository. `F` names the fields that kind of row can be filtered on.
 *
 * Unknown values follow SQL: a comparison with a missing field is unknown, an `and` with an unknown part is
 * unknown unless another part is false, and a row matches only when the whole filter is true; `not` counts an
 * unknown inner result as "does not match", so rows with unset fields pass a `not`.
 *
 * @example
 * const filter: Filter<'peerId' | 'createdAt'> = {
 *   op: 'and',
 *   filters: [
 *     { op: 'in', field: 'peerId', values: ['alice', 'bob'] },
 *     { op: 'gte', field: 'createdAt', value: '2026-01-01T00:00:00.000Z' },
 *   ],
 * }
 */
export type Filter<F extends string = string> =
  /** True when every part is; `and([])` matches everything. */
  | { readonly op: 'and'; readonly filters: readonly Filter<F>[] }
  /** True when some part is; `or([])` matches nothing. */
  | { readonly op: 'or'; readonly filters: readonly Filter<F>[] }
  | { readonly op: 'not'; readonly filter: Filter<F> }
  /** `ne` also matches rows where the field is unset. */
  | {
      readonly op: 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte'
      readonly field: F
      readonly value: FilterValue
    }
  /** An empty list matches nothing. */
  | { readonly op: 'in'; readonly field: F; readonly values: readonly FilterValue[] }
  | { readonly op: 'isNull' | 'notNull'; readonly field: F }
  /** Case-insensitive substring of a text field. */
  | { readonly op: 'containsText'; readonly field: F; readonly text: string }
  /** An `ids` field holds this id. */
  | { readonly op: 'hasId'; readonly field: F; readonly id: string }
  /** An `ids` field is empty. */
  | { readonly op: 'noIds'; readonly field: F }
  | JsonFilter<F>
  /** Messages only: written while the peer was a member of the message's session. */
  | { readonly op: 'observableBy'; readonly peerId: string }

/** A test of the value at `path` (object keys, outermost first) inside a `json` field. */
export type JsonFilter<F extends string = string> =
  | {
      readonly op: 'jsonIs'
      readonly field: F
      readonly path: readonly string[]
      readonly type: 'object' | 'array'
    }
  /** Same JSON type and value: the string `"1"` does not equal the number `1` or `true`. */
  | {
      readonly op: 'jsonEquals'
      readonly field: F
      readonly path: readonly string[]
      readonly value: JsonScalar
    }
  /** Equal (as `jsonEquals` is) to one of `values`; an empty list matches nothing. */
  | {
      readonly op: 'jsonIn'
      readonly field: F
      readonly path: readonly string[]
      readonly values: readonly JsonScalar[]
    }
  /** Present and not JSON null. */
  | { readonly op: 'jsonPresent'; readonly field: F; readonly path: readonly string[] }
  /** The value is an array holding this scalar (a scalar value equal to it also counts). */
  | {
      readonly op: 'jsonHas'
      readonly field: F
      readonly path: readonly string[]
      readonly value: JsonScalar
    }
  /** A string containing this text, case-insensitively. */
  | {
      readonly op: 'jsonContainsText'
      readonly field: F
      readonly path: readonly string[]
      readonly text: string
    }
  /** A number compared with a number, or a string compared with a string; other types do not match. */
  | {
      readonly op: 'jsonCompare'
      readonly field: F
      readonly path: readonly string[]
      readonly compare: 'gt' | 'gte' | 'lt' | 'lte'
      readonly value: number | string
    }

/** The filterable fields of each kind of row, with how each compares. */
export const WORKSPACE_FILTER_FIELDS = {
  id: 'text',
  createdAt: 'time',
  metadata: 'json',
} as const satisfies Record<string, FilterFieldKind>

export const PEER_FILTER_FIELDS = {
  id: 'text',
  workspaceId: 'text',
  createdAt: 'time',
  metadata: 'json',
} as const satisfies Record<string, FilterFieldKind>

export const SESSION_FILTER_FIELDS = {
  id: 'text',
  workspaceId: 'text',
  createdAt: 'time',
  isActive: 'boolean',
  metadata: 'json',
} as const satisfies Record<string, FilterFieldKind>

export const MESSAGE_FILTER_FIELDS = {
  workspaceId: 'text',
  sessionId: 'text',
  peerId: 'text',
  tokenCount: 'number',
  createdAt: 'time',
  metadata: 'json',
} as const satisfies Record<string, FilterFieldKind>

export const CONCLUSION_FILTER_FIELDS = {
  id: 'text',
  content: 'text',
  level: 'text',
  sessionId: 'text',
  observerId: 'text',
  observedId: 'text',
  createdAt: 'time',
  sourceIds: 'ids',
  timesDerived: 'number',
  metadata: 'json',
} as const satisfies Record<string, FilterFieldKind>

export type WorkspaceFilterField = keyof typeof WORKSPACE_FILTER_FIELDS
export type PeerFilterField = keyof typeof PEER_FILTER_FIELDS
export type SessionFilterField = keyof typeof SESSION_FILTER_FIELDS
export type MessageFilterField = keyof typeof MESSAGE_FILTER_FIELDS
export type ConclusionFilterField = keyof typeof CONCLUSION_FILTER_FIELDS

export type WorkspaceFilter = Filter<WorkspaceFilterField>
export type PeerFilter = Filter<PeerFilterField>
export type SessionFilter = Filter<SessionFilterField>
export type MessageFilter = Filter<MessageFilterField>
export type ConclusionFilter = Filter<ConclusionFilterField>
