import type { ColumnSpec, FilterResource } from './types'

const col = (ref: string, kind: ColumnSpec['kind'], values?: readonly string[]): ColumnSpec =>
  values ? { ref, kind, values } : { ref, kind }

/** Conclusion levels (the `level` enum). */
export const CONCLUSION_LEVELS = ['explicit', 'deductive', 'inductive', 'contradiction'] as const

export const WORKSPACE_FILTERS: FilterResource = {
  name: 'workspaces',
  columns: {
    id: col('workspaces.id', 'text'),
    created_at: col('workspaces.created_at', 'date'),
    metadata: col('workspaces.metadata', 'json'),
  },
}

export const PEER_FILTERS: FilterResource = {
  name: 'peers',
  columns: {
    id: col('peers.id', 'text'),
    workspace_id: col('peers.workspace_id', 'text'),
    created_at: col('peers.created_at', 'date'),
    metadata: col('peers.metadata', 'json'),
  },
}

export const SESSION_FILTERS: FilterResource = {
  name: 'sessions',
  columns: {
    id: col('sessions.id', 'text'),
    workspace_id: col('sessions.workspace_id', 'text'),
    created_at: col('sessions.created_at', 'date'),
    is_active: col('sessions.is_active', 'bool'),
    metadata: col('sessions.metadata', 'json'),
  },
}

export const MESSAGE_FILTERS: FilterResource = {
  name: 'messages',
  columns: {
    workspace_id: col('messages.workspace_id', 'text'),
    session_id: col('messages.session_id', 'text'),
    peer_id: col('messages.peer_id', 'text'),
    token_count: col('messages.token_count', 'int'),
    created_at: col('messages.created_at', 'date'),
    metadata: col('messages.metadata', 'json'),
  },
}

/** Columns of the `conclusions` relation (explicit notes united with graph facts, see the conclusions route). */
export const CONCLUSION_FILTERS: FilterResource = {
  name: 'conclusions',
  columns: {
    id: col('conclusions.id', 'text'),
    content: col('conclusions.content', 'text'),
    level: col('conclusions.level', 'enum', CONCLUSION_LEVELS),
    session_id: col('conclusions.session_id', 'text'),
    observer_id: col('conclusions.observer_id', 'text'),
    observer: col('conclusions.observer_id', 'text'),
    observed_id: col('conclusions.observed_id', 'text'),
    observed: col('conclusions.observed_id', 'text'),
    created_at: col('conclusions.created_at', 'date'),
    source_ids: col('conclusions.source_ids', 'json-array'),
    times_derived: col('conclusions.times_derived', 'int'),
    metadata: col('conclusions.metadata', 'json'),
  },
}
