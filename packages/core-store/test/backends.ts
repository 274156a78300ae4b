import Database from 'better-sqlite3'
import type { Store, StoreLog, VectorSupport } from '../src/store/types'
import { useTempStores } from './store-harness'

/** What a backend-neutral suite may ask of a fresh store. */
export interface TestStoreOptions {
  readonly clock?: () => Date
  readonly newId?: () => string
  readonly log?: StoreLog
}

/** Fresh, empty stores for each test; every store opened is closed (and its data dropped) after the test. */
export interface TestStores {
  open(options?: TestStoreOptions): Promise<Store>
  /** Another store on the database `store` uses (SQLite: its file; PostgreSQL: its schema). */
  reopen(store: Store, options?: TestStoreOptions): Promise<Store>
  /** Records, behind the store's back, that `store`'s database was written by schema version `version`. */
  stampSchemaVersion(store: Store, version: number): Promise<void>
}

/** One backend a contract suite runs on. */
export interface BackendUnderTest {
  readonly label: string
  readonly vectorMode: VectorSupport['mode']
  /** Registers the suite's hooks; call inside its `describe`. */
  use(): TestStores
}

export function sqliteBackend(options: { loadVectorExtension: boolean }): BackendUnderTest {
  return {
    label: options.loadVectorExtension ? 'SQLite with sqlite-vec' : 'SQLite with the JS cosine scan',
    vectorMode: options.loadVectorExtension ? 'sqlite-vec' : 'js-scan',
    use() {
      const stores = useTempStores()
      const { loadVectorExtension } = options
      // A SQLite store's location is its file's path (readable after close, unlike info()).
      const pathOf = (store: Store) => store.location
      return {
        open: async (extra = {}) => stores.open({ ...extra, loadVectorExtension }),
        reopen: async (store, extra = {}) =>
          stores.open({ ...extra, path: pathOf(store), loadVectorExtension }),
        stampSchemaVersion: async (store, version) => {
          const raw = new Database(pathOf(store))
          try {
            raw.pragma(`user_version = ${version}`)
          } finally {
            raw.close()
          }
        },
      }
    },
  }
}
