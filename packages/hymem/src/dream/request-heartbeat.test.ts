import { describe, expect, it } from 'vitest'
import { createHeartbeatBuffer, enterForeground, startHeartbeat, waitWhileBehind } from './request-heartbeat'

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve))
}

describe('the request thread heartbeat', () => {
  it('lets a dream go on at once while the request thread keeps beating', async () => {
    const buffer = createHeartbeatBuffer()
    const stop = startHeartbeat(buffer)
    try {
      // A wait of up to a minute would time the test out: a fresh beat is not waited for.
      let waited = false
      await waitWhileBehind(buffer, { maxWaitMs: 60_000 })().then(() => {
        waited = true
      })
      expect(waited).toBe(true)
    } finally {
      stop()
    }
  })

  it('holds a dream at its checkpoint while the beat is stale, and lets it go when the beat comes back', async () => {
    const buffer = createHeartbeatBuffer()
    let waited = false
    const waiting = waitWhileBehind(buffer, { maxWaitMs: 60_000 })().then(() => {
      waited = true
    })
    await turns(20)
    expect(waited).toBe(false)
    const stop = startHeartbeat(buffer)
    try {
      await waiting
      expect(waited).toBe(true)
    } finally {
      stop()
    }
  })

  it('waits at most maxWaitMs, so dreams progress beside a request thread that never catches up', async () => {
    const buffer = createHeartbeatBuffer()
    let waited = false
    await waitWhileBehind(buffer, { maxWaitMs: 0 })().then(() => {
      waited = true
    })
    expect(waited).toBe(true)
  })

  it('holds a dream while a request is in flight, and lets it go when the last one ends', async () => {
    const buffer = createHeartbeatBuffer()
    const stop = startHeartbeat(buffer)
    const first = enterForeground(buffer)
    const second = enterForeground(buffer)
    try {
      let waited = false
      const waiting = waitWhileBehind(buffer, { maxWaitMs: 60_000 })().then(() => {
        waited = true
      })
      await turns(20)
      expect(waited).toBe(false)
      first()
      first()
      await turns(20)
      expect(waited).toBe(false)
      second()
      await waiting
      expect(waited).toBe(true)
    } finally {
      stop()
    }
  })
})
