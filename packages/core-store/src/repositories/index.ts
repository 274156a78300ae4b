import type { Kysely } from 'kysely'
import type { HyMemDatabase } from '../schema/tables'
import type { StoreContext } from '../store/types'
import type {
  DreamRunsRepository,
  MessagesRepository,
  PeersRepository,
  SessionsRepository,
  WorkspacesRepository,
} from './types'

/** The typed repositories every store scope carries. Later layers add to them. */
export interface Repositories {
  readonly workspaces: WorkspacesRepository
  readonly peers: PeersRepository
  readonly sessions: SessionsRepository
  readonly messages: MessagesRepository
  readonly dreamRuns: DreamRunsRepository
}

export function createRepositories(_db: Kysely<HyMemDatabase>, _context: StoreContext): Repositories {
  return {}
}
