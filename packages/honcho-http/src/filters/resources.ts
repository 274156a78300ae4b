import {
  CONCLUSION_FILTER_FIELDS,
  type FilterFieldKind,
  MESSAGE_FILTER_FIELDS,
  PEER_FILTER_FIELDS,
  SESSION_FILTER_FIELDS,
  WORKSPACE_FILTER_FIELDS,
} from '@hymem/core-store'
import type { FilterResource, WireField } from './types'

/** Conclusion levels (the `level` enum). */
export const CONCLUSION_LEVELS = ['explicit', 'deductive', 'inductive', 'contradiction'] as const

function resource<F extends string>(
  name: string,
  kinds: Readonly<Record<F, FilterFieldKind>>,
  keys: Readonly<Record<string, F>>,
  enums: Partial<Record<F, readonly string[]>> = {},
): FilterResource<F> {
  const fields: Record<string, WireField<F>> = {}
  for (const [key, field] of Object.entries(keys)) {
    const values = enums[field]
    fields[key] = values ? { field, kind: kinds[field], values } : { field, kind: kinds[field] }
  }
  return { name, fields }
}

export const WORKSPACE_FILTERS = resource('workspaces', WORKSPACE_FILTER_FIELDS, {
  id: 'id',
  created_at: 'createdAt',
  metadata: 'metadata',
})

export const PEER_FILTERS = resource('peers', PEER_FILTER_FIELDS, {
  id: 'id',
  workspace_id: 'workspaceId',
  created_at: 'createdAt',
  metadata: 'metadata',
})

export const SESSION_FILTERS = resource('sessions', SESSION_FILTER_FIELDS, {
  id: 'id',
  workspace_id: 'workspaceId',
  created_at: 'createdAt',
  is_active: 'isActive',
  metadata: 'metadata',
})

export const MESSAGE_FILTERS = resource('messages', MESSAGE_FILTER_FIELDS, {
  workspace_id: 'workspaceId',
  session_id: 'sessionId',
  peer_id: 'peerId',
  token_count: 'tokenCount',
  created_at: 'createdAt',
  metadata: 'metadata',
})

/** Explicit notes united with graph facts (see the conclusions route). */
export const CONCLUSION_FILTERS = resource(
  'conclusions',
  CONCLUSION_FILTER_FIELDS,
  {
    id: 'id',
    content: 'content',
    level: 'level',
    session_id: 'sessionId',
    observer_id: 'observerId',
    observer: 'observerId',
    observed_id: 'observedId',
    observed: 'observedId',
    created_at: 'createdAt',
    source_ids: 'sourceIds',
    times_derived: 'timesDerived',
    metadata: 'metadata',
  },
  { level: CONCLUSION_LEVELS },
)
