import { describe, expect, it } from 'vitest'
import { captureContext } from '../test/harness'
import { colorEnabled, maskingOutput } from './io'

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

describe('maskingOutput', () => {
  it('masks URL secrets in what is written and keeps the rest of the stream (TTY, columns, methods)', () => {
    const written: string[] = []
    const terminal = {
      write: (text: string) => written.push(text),
      isTTY: true,
      columns: 120,
      cursorTo(this: { columns: number }, x: number) {
        return x <= this.columns
      },
    }
    const masked = maskingOutput(terminal) as typeof terminal
    masked.write('error: cannot reach postgres://app:hunter2@db/memory?sslpassword=k3y\n')
    expect(written).toEqual(['error: cannot reach postgres://app:****@db/memory?sslpassword=****\n'])
    expect([masked.isTTY, masked.columns, masked.cursorTo(3)]).toEqual([true, 120, true])
  })
})
