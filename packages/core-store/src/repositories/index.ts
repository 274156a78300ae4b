import type { Kysely } from 'kysely'
import type { HyMemDatabase } from '../schema/tables'
import type { StoreContext } from '../store/types'
import { createDreamRunsRepository } from './dream-runs'
import { createMessagesRepository } from './messages'
import { createPeersRepository } from './peers'
import { _createRepositoryScope, type RepositoryOptions } from './scope'
import { createSessionsRepository } from './sessions'
import type {
  DreamRunsRepository,
  MessagesRepository,
  PeersRepository,
  SessionsRepository,
  WorkspacesRepository,
} from './types'
import { createWorkspacesRepository } from './workspaces'

export type { RepositoryOptions } from './scope'

/** The typed repositories every store scope carries. Later layers add to them. */
export interface Repositories {
  readonly workspaces: WorkspacesRepository
  readonly peers: PeersRepository
  readonly sessions: SessionsRepository
  readonly messages: MessagesRepository
  readonly dreamRuns: DreamRunsRepository
}

/**
 * Builds the repositories over one executor. Pass `inTransaction: true` for the scope of
 * `store.transaction(fn)`, so multi-row writes join that transaction instead of opening their own.
 */
export function createRepositories(
  db: Kysely<HyMemDatabase>,
  context: StoreContext,
  options: RepositoryOptions,
): Repositories {
  const scope = _createRepositoryScope(db, context, options)
  return {
    workspaces: createWorkspacesRepository(scope),
    peers: createPeersRepository(scope),
    sessions: createSessionsRepository(scope),
    messages: createMessagesRepository(scope),
    dreamRuns: createDreamRunsRepository(scope),
  }
}
