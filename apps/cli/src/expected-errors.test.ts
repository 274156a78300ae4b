import { join } from 'node:path'
import { openStore } from '@hymem/core-store'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../test/harness'
import { describeExpectedError } from './expected-errors'

describe('describeExpectedError', () => {
  it('turns a call on a closed store into one line that says so', async () => {
    const { dir, cleanup } = tempDir()
    try {
      const store = openStore({ path: join(dir, 'hymem.sqlite') })
      await store.close()
      const error = await store.peers.get('w', 'alice').then(
        () => null,
        (e: unknown) => e,
      )
      expect(describeExpectedError(error)?.split(dir).join('<dir>')).toBe(
        'the store at <dir>/hymem.sqlite is closed: open it again to read or write',
      )
    } finally {
      cleanup()
    }
  })
})
