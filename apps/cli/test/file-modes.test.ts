import { readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { createHyMem } from 'hymem'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../src/run'
import { captureContext, fixture, tempDir } from './harness'

/** Every folder and file under `dir` (itself included) as `relative path → octal mode`. */
function modesUnder(dir: string): Record<string, string> {
  const modes: Record<string, string> = {}
  const visit = (path: string) => {
    const stats = statSync(path)
    modes[relative(dir, path) || '.'] = (stats.mode & 0o777).toString(8)
    if (stats.isDirectory()) for (const name of readdirSync(path).sort()) visit(join(path, name))
  }
  visit(dir)
  return modes
}

// The usual umask, under which files are created 0644 and folders 0755 unless told otherwise.
let previousUmask: number
beforeAll(() => {
  previousUmask = process.umask(0o022)
})
afterAll(() => {
  process.umask(previousUmask)
})

describe('memory files under umask 022', () => {
  let dir: string
  let cleanup: () => void
  beforeEach(() => {
    ;({ dir, cleanup } = tempDir())
  })
  afterEach(() => cleanup())

  const cli = async (args: string[], root: string) => {
    const run = captureContext({ env: { HYMEM_ROOT: root, HOME: dir }, cwd: dir })
    const code = await runCli(args, run.ctx)
    return { code, stdout: run.stdout(), stderr: run.stderr() }
  }

  it('creates every folder 0700 and every file 0600: capture, dream, export, a second workspace, notes', async () => {
    const root = join(dir, 'home', '.hermes')
    const conversation = fixture('conversation.jsonl')
    expect((await cli(['capture', '--dream', conversation], root)).code).toBe(0)
    expect((await cli(['export', '--out', 'dump.jsonl'], root)).code).toBe(0)
    // A memory still open: its write-ahead log and shared memory are there.
    const memory = await createHyMem({ root, embeddings: null })
    try {
      await memory.capture(
        [
          { role: 'user', content: 'I moved to Lisbon in May. I prefer tea over coffee.' },
          { role: 'assistant', content: 'Noted: Lisbon, and tea.' },
        ],
        { workspaceId: 'team-b', dream: true },
      )
      await memory.remember({ description: 'home', content: 'Lives in Lisbon' })
      await memory.log({ role: 'user', content: 'We deploy on Fridays.' })
      expect(modesUnder(join(dir, 'home'))).toMatchInlineSnapshot(`
        {
          ".": "700",
          ".hermes": "700",
          ".hermes/MEMORY.md": "600",
          ".hermes/USER.md": "600",
          ".hermes/hymem.sqlite": "600",
          ".hermes/hymem.sqlite-shm": "600",
          ".hermes/hymem.sqlite-wal": "600",
          ".hermes/workspaces": "700",
          ".hermes/workspaces/team-b": "700",
          ".hermes/workspaces/team-b/MEMORY.md": "600",
          ".hermes/workspaces/team-b/USER.md": "600",
        }
      `)
    } finally {
      await memory.close()
    }
    expect(modesUnder(dir)['dump.jsonl']).toBe('600')
  })
})
