import { describe, expect, it } from 'vitest'
import { captureContext, tempDir } from '../../test/harness'
import { seedRoot } from '../../test/seed'
import { dreamCommand } from '../commands/dream'
import type { CliOutput } from '../io'
import { createProgress } from './progress'

/** A terminal-like stream: the control sequences cli-progress writes land in `text`. */
function fakeTerminal(): CliOutput & { text: string; cursorTo(): boolean } {
  const terminal = {
    text: '',
    isTTY: true,
    columns: 100,
    write(chunk: string) {
      terminal.text += chunk
      return true
    },
    cursorTo: () => true,
  }
  return terminal
}

describe('progress bars', () => {
  it('draw nothing when the output is not a terminal', () => {
    const pipe = { ...fakeTerminal(), isTTY: false }
    const progress = createProgress(pipe, 'work')
    progress.update(1, 2, 'half')
    progress.stop()
    expect(pipe.text).toBe('')
  })

  it('show the dream on stderr when it is a terminal, and clear themselves at the end', async () => {
    const { dir, cleanup } = tempDir()
    try {
      await seedRoot(dir, { dream: false })
      const stderr = fakeTerminal()
      const base = captureContext({ env: { HYMEM_ROOT: dir } })
      await dreamCommand({ json: true }, { ...base.ctx, stderr })
      expect(stderr.text).toContain('dreaming')
      expect(stderr.text).toContain('\u001b[2K') // erase line: the bar cleared itself
      expect(JSON.parse(base.stdout()).status).toBe('ok') // stdout stays clean JSON
    } finally {
      cleanup()
    }
  })
})
