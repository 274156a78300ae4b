export { _filterFor } from './by-backend'
export { checkFilterLimits, FILTER_LIMITS } from './limits'
export type { FilterTarget } from './translate'
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
