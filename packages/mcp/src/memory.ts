import type { HyMem } from 'hymem'

/** The part of the HyMem facade the MCP tools use. Any object of this shape will do (tests pass fakes). */
export type McpMemory = Pick<
  HyMem,
  | 'capture'
  | 'log'
  | 'dream'
  | 'augment'
  | 'profile'
  | 'alias'
  | 'retract'
  | 'notes'
  | 'erase'
  | 'queue'
  | 'history'
  | 'conflicts'
  | 'stats'
  | 'extractor'
  | 'embeddings'
  | 'workspaceId'
>
