import type { HyMemConfig, HyMemLogEvent } from 'hymem'
import { describe, expect, it } from 'vitest'
import { createLogSink } from './log-sink'

const config = { logLevel: 'info' } as HyMemConfig

function upgrade(table: string, done: number, total = 5_003): HyMemLogEvent {
  return {
    kind: 'store',
    level: done === 0 || done >= total ? 'info' : 'debug',
    event: { kind: 'upgrade', migration: '8-full-text-every-script', table, done, total },
  }
}

const UPGRADE = [
  upgrade('messages', 0),
  upgrade('messages', 2_000),
  upgrade('messages', 4_000),
  upgrade('messages', 5_000),
  upgrade('chunks', 5_000),
  upgrade('episodes', 5_000),
  upgrade('notes', 5_003),
]

function terminal(): { stream: NodeJS.WriteStream; written: () => string } {
  let written = ''
  const stream = {
    isTTY: true,
    columns: 100,
    write(text: string) {
      written += text
      return true
    },
    cursorTo: () => true,
    clearLine: () => true,
    moveCursor: () => true,
    on: () => stream,
    removeListener: () => stream,
  } as unknown as NodeJS.WriteStream
  return { stream, written: () => written }
}

describe('createLogSink: schema upgrades', () => {
  it('says once, in a line that tells what happens on an interruption, that the store is upgrading', () => {
    let written = ''
    const log = createLogSink(config, {}, { write: (text) => (written += text), isTTY: false })
    for (const event of UPGRADE) log(event)
    log(upgrade('messages', 5_003))
    expect(written).toBe(
      'note: upgrading the memory store (migration 8-full-text-every-script: 5,003 rows to go through; an interrupted upgrade starts again on the next run)\n',
    )
  })

  it('draws a progress bar on a terminal, up to every row', () => {
    const { stream, written } = terminal()
    const log = createLogSink(config, {}, stream)
    for (const event of UPGRADE) log(event)
    expect(written()).toContain('note: upgrading the memory store')
    expect(written()).toMatch(/upgrading .* 0\/5003 messages/)
    expect(written()).toMatch(/upgrading .* 5003\/5003 notes/)
  })

  it('with HYMEM_LOG_LEVEL set, upgrades are ordinary log lines at their level', () => {
    let written = ''
    const log = createLogSink(
      config,
      { HYMEM_LOG_LEVEL: 'info' },
      { write: (text) => (written += text), isTTY: false },
    )
    for (const event of UPGRADE) log(event)
    expect(written.trim().split('\n')).toHaveLength(2)
    expect(written).toContain('"done":0')
    expect(written).toContain('"done":5003')
  })
})
