import { describe, expect, it } from 'vitest'
import { captureContext } from '../test/harness'
import { colorEnabled } from './io'

describe('colorEnabled', () => {
  const tty = { write() {}, isTTY: true }
  it('colours a terminal, never a pipe', () => {
    const { ctx } = captureContext()
    expect(colorEnabled(ctx, tty)).toBe(true)
    expect(colorEnabled(ctx)).toBe(false)
  })
  it('honours NO_COLOR and FORCE_COLOR', () => {
    expect(colorEnabled(captureContext({ env: { NO_COLOR: '1' } }).ctx, tty)).toBe(false)
    expect(colorEnabled(captureContext({ env: { FORCE_COLOR: '1' } }).ctx)).toBe(true)
  })
})
