export { _filterFor } from './by-backend'
export type { FilterTarget } from './sqlite'
export type {
  ConclusionFilter,
  ConclusionFilterField,
  Filter,
  FilterFieldKind,
  FilterValue,
  JsonFilter,
  JsonScalar,
  MessageFilter,
  MessageFilterField,
  PeerFilter,
  PeerFilterField,
  SessionFilter,
  SessionFilterField,
  WorkspaceFilter,
  WorkspaceFilterField,
} from './types'
export {
  CONCLUSION_FILTER_FIELDS,
  MESSAGE_FILTER_FIELDS,
  PEER_FILTER_FIELDS,
  SESSION_FILTER_FIELDS,
  WORKSPACE_FILTER_FIELDS,
} from './types'
