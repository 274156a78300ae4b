import type { Store, StoreScope } from '../src/store/types'
import type { BackendUnderTest, TestStores } from './backends'

/** Store members that are plumbing, not repositories: the clock/id context and core-store's own builder. */
const NOT_A_REPOSITORY = new Set(['context', 'db'])
const STORE_METHODS = ['transaction', 'info', 'fork', 'close'] as const

/**
 * Every public method of a real store: `repository.method` for each repository, `fullText`, `vectors` and
 * `runLock`, plus `store.transaction|info|fork|close`. Read from the object, so a new method shows up here
 * without anyone listing it.
 */
export function storeMethodInventory(store: Store): string[] {
  const methods: string[] = []
  for (const [group, value] of Object.entries(store)) {
    if (NOT_A_REPOSITORY.has(group) || value === null || typeof value !== 'object') continue
    for (const [name, member] of Object.entries(value)) {
      if (typeof member === 'function') methods.push(`${group}.${name}`)
    }
  }
  for (const name of STORE_METHODS) methods.push(`store.${name}`)
  return methods.sort()
}

/** Which inventory methods the contract called, on any store it opened (forks and transaction scopes too). */
export class MethodRecorder {
  readonly called = new Set<string>()
  private readonly targets = new WeakMap<Store, Store>()

  /** The backend with every opened store wrapped, so calls through it are recorded. */
  wrap(backend: BackendUnderTest): BackendUnderTest {
    return {
      ...backend,
      use: () => {
        const stores = backend.use()
        return {
          ...stores,
          open: async (options) => this.store(await stores.open(options)),
          reopen: async (store, options) => this.store(await stores.reopen(this.unwrap(store), options)),
          stampSchemaVersion: (store, version) => stores.stampSchemaVersion(this.unwrap(store), version),
        } as TestStores
      },
    }
  }

  /** The store behind a recording proxy, so harness calls on it are not counted as contract calls. */
  private unwrap(store: Store): Store {
    return this.targets.get(store) ?? store
  }

  private store(store: Store): Store {
    const proxy = new Proxy(store, {
      get: (target, key, receiver) => {
        const value = Reflect.get(target, key, receiver)
        if (typeof key !== 'string') return value
        if (typeof value === 'function') return this.storeMethod(target, key, value)
        if (value !== null && typeof value === 'object' && !NOT_A_REPOSITORY.has(key))
          return this.group(key, value)
        return value
      },
    })
    this.targets.set(proxy, store)
    return proxy
  }

  private storeMethod(target: Store, key: string, method: (...args: unknown[]) => unknown) {
    return (...args: unknown[]) => {
      this.called.add(`store.${key}`)
      if (key === 'fork') return this.store(method.apply(target, args) as Store)
      if (key === 'transaction') {
        const fn = args[0] as (tx: StoreScope) => Promise<unknown>
        return method.call(target, (tx: StoreScope) => fn(this.scope(tx)))
      }
      return method.apply(target, args)
    }
  }

  private scope(tx: StoreScope): StoreScope {
    return new Proxy(tx, {
      get: (target, key, receiver) => {
        const value = Reflect.get(target, key, receiver)
        if (typeof key !== 'string' || value === null || typeof value !== 'object') return value
        return this.group(key, value)
      },
    })
  }

  private group(name: string, group: object): object {
    return new Proxy(group, {
      get: (target, key, receiver) => {
        const value = Reflect.get(target, key, receiver)
        if (typeof key !== 'string' || typeof value !== 'function') return value
        return (...args: unknown[]) => {
          this.called.add(`${name}.${key}`)
          return value.apply(target, args)
        }
      },
    })
  }
}
