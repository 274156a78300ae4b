import type { Kysely } from 'kysely'
import type { HyMemDatabase } from '../schema/tables'
import type { StoreContext } from '../store/types'

/** The typed repositories every store scope carries. */
// biome-ignore lint/complexity/noBannedTypes: grows as repositories are added
export type Repositories = {}

export function createRepositories(_db: Kysely<HyMemDatabase>, _context: StoreContext): Repositories {
  return {}
}
