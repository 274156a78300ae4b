import { afterEach, beforeEach } from 'vitest'
import { openStore } from '../src/engine/sqlite/open-store'
import type { OpenStoreOptions, Store } from '../src/store/types'
import { tempDir } from './temp-dir'

/** A fixed clock that tests can move forward. */
export function manualClock(start = '2026-03-01T10:00:00.000Z') {
  let now = new Date(start).getTime()
  return {
    clock: () => new Date(now),
    advance: (ms: number) => {
      now += ms
    },
  }
}

/**
 * Registers hooks that give each test a fresh temp directory; `open()` opens (and later closes) stores there.
 */
export function useTempStores() {
  let temp: ReturnType<typeof tempDir>
  const opened: Store[] = []
  beforeEach(() => {
    temp = tempDir()
  })
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close()
    temp.cleanup()
  })
  return {
    open(options: Partial<OpenStoreOptions> = {}, name = 'hymem.sqlite'): Store {
      const store = openStore({ path: temp.file(name), ...options })
      opened.push(store)
      return store
    },
    track(store: Store): Store {
      opened.push(store)
      return store
    },
    file: (name: string) => temp.file(name),
  }
}

/** Sequential ids `id-1`, `id-2`, ... so tests can predict public ids. */
export function sequentialIds(prefix = 'id') {
  let n = 0
  return () => `${prefix}-${++n}`
}

export async function expectStoreError(promise: Promise<unknown>, code: string): Promise<Error> {
  try {
    await promise
  } catch (error) {
    const { StoreError } = await import('../src/kernel/errors')
    if (!(error instanceof StoreError)) throw error
    if (error.code !== code)
      throw new Error(`expected StoreError ${code}, got ${error.code}: ${error.message}`)
    return error
  }
  throw new Error(`expected StoreError ${code}, but the call succeeded`)
}
