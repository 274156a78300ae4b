import type { Store, VectorSupport } from '../src/store/types'
import { useTempStores } from './store-harness'

/** What a backend-neutral suite may ask of a fresh store. */
export interface TestStoreOptions {
  readonly clock?: () => Date
  readonly newId?: () => string
}

/** Fresh, empty stores for each test; every store opened is closed (and its data dropped) after the test. */
export interface TestStores {
  open(options?: TestStoreOptions): Promise<Store>
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
      return {
        open: async (extra = {}) =>
          stores.open({ ...extra, loadVectorExtension: options.loadVectorExtension }),
      }
    },
  }
}
