import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Store } from '@hymem/core-store'
import type { HyMemOptions } from '../types'
import { chooseDatabase } from './database-option'
import { openDatabase } from './open-database'

/** Where {@link openHyMemStore} looks: the database options of `createHyMem`. */
export type HyMemStoreOptions = Pick<HyMemOptions, 'root' | 'databasePath' | 'database' | 'clock'>

/**
 * Opens the store `createHyMem` would open for the same options (the SQLite file under `root`, or the
 * `database` URL), for code that needs `@hymem/core-store`'s repositories beside the facade. Pass it on as
 * `createHyMem({ store })`; the facade then leaves it open, so close it after the facade.
 *
 * @example
 * const store = await openHyMemStore({ root: '/tmp/hymem' })
 * const memory = await createHyMem({ root: '/tmp/hymem', store })
 * console.log(await store.messages.count(memory.workspaceId))
 * await memory.close()
 * await store.close()
 */
export async function openHyMemStore(options: HyMemStoreOptions = {}): Promise<Store> {
  const { databasePath } = _databasePaths(options)
  return openDatabase(chooseDatabase(options.database, databasePath), {
    ...(options.clock ? { clock: options.clock } : {}),
  })
}

/** The memory's folder (`root`, default `~/.hermes`) and its SQLite file (default `${root}/hymem.sqlite`). */
export function _databasePaths(options: HyMemStoreOptions): { root: string; databasePath: string } {
  const root = resolve(options.root ?? join(homedir(), '.hermes'))
  return { root, databasePath: resolve(options.databasePath ?? join(root, 'hymem.sqlite')) }
}
