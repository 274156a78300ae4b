import { spawn } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { bytesOnDisk, FORGOTTEN, TRIP, WORK } from '../../test/forget-scenario'
import { tempRoot } from '../../test/harness'
import { createHyMem } from '../create-hymem'
import { _storeOf } from '../hymem'

const here = dirname(fileURLToPath(import.meta.url))
const repoRoot = resolve(here, '../../../..')
const child = join(here, '../../test/fixtures/forget-child.ts')

/** Runs the child until it freezes at `point`, then SIGKILLs it. */
function forgetAndKill(root: string, point: string): Promise<boolean> {
  return new Promise((resolvePromise, reject) => {
    const proc = spawn(
      process.execPath,
      ['--conditions=@hymem/source', '--import', 'tsx', child, root, point],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let stderr = ''
    let killed = false
    proc.stderr.on('data', (d) => {
      stderr += String(d)
    })
    createInterface({ input: proc.stdout }).on('line', (line) => {
      if (line === 'frozen' && !killed) {
        killed = true
        proc.kill('SIGKILL')
      }
    })
    proc.on('error', reject)
    proc.on('exit', (code, signal) => {
      if (!killed) reject(new Error(`child exited ${code ?? signal} without freezing: ${stderr}`))
      else resolvePromise(signal === 'SIGKILL')
    })
  })
}

describe('crash safety: a purge killed with SIGKILL is finished by the next start', () => {
  for (const point of ['requested', 'rows-removed']) {
    it(`killed when ${point}: the restart excludes the session at once and purges it from disk`, {
      timeout: 90_000,
    }, async () => {
      const { root, cleanup } = tempRoot()
      try {
        const seeding = await createHyMem({ root })
        await seeding.capture(TRIP, { sessionId: 'trip' })
        await seeding.capture(WORK, { sessionId: 'work' })
        await seeding.dream()
        await seeding.close()

        expect(await forgetAndKill(root, point)).toBe(true)
        // The killed process left its purge unfinished: the words are still in the files.
        expect(bytesOnDisk(root)).toContain('zanzib')

        const memory = await createHyMem({ root, searchLog: false })
        try {
          expect((await _storeOf(memory).messages.listBySession('default', 'trip')).total).toBe(0)
          const { query: _asked, ...context } = await memory.augment('Zanzibar Quetzalcoatl booking')
          expect(JSON.stringify(context).toLowerCase()).not.toContain('zanzib')
          const receipts = await memory.erase.finish()
          expect(receipts.map((r) => [r.kind, r.status])).toEqual([['session', 'done']])
          expect(receipts[0]?.removed).toMatchObject({ messages: 3, chunks: 1 })
          const disk = bytesOnDisk(root)
          for (const word of FORGOTTEN) expect(disk).not.toContain(word)
          expect((await _storeOf(memory).messages.listBySession('default', 'work')).total).toBe(2)
          expect(await _storeOf(memory).runLock.inspect('dream:default')).toBeNull()
        } finally {
          await memory.close()
        }
      } finally {
        cleanup()
      }
    })
  }
})
