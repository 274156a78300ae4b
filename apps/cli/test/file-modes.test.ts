import { execFileSync } from 'node:child_process'
import { chmodSync, readdirSync, statSync } from 'node:fs'
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
      await memory.notes.remember({ description: 'home', content: 'Lives in Lisbon' })
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

  it('doctor warns with the chmod to run when the memory is readable by others, and that command fixes it', async () => {
    const root = join(dir, 'memory')
    expect((await cli(['capture', '--dream', fixture('conversation.jsonl')], root)).code).toBe(0)
    const permissionsLine = async () => {
      const { stdout } = await cli(['doctor', '--offline'], root)
      return stdout
        .split('\n')
        .find((line) => line.includes('file permissions'))
        ?.split(dir)
        .join('<dir>')
    }
    expect(await permissionsLine()).toMatchInlineSnapshot(
      `"  ok    file permissions  the memory folder and files are private to their owner"`,
    )

    chmodSync(root, 0o755)
    chmodSync(join(root, 'USER.md'), 0o644)
    chmodSync(join(root, 'hymem.sqlite'), 0o640)
    const { stdout } = await cli(['doctor', '--json', '--offline'], root)
    const check = JSON.parse(stdout).checks.find((c: { name: string }) => c.name === 'file permissions')
    expect({ ...check, detail: check.detail.split(dir).join('<dir>') }).toMatchInlineSnapshot(`
      {
        "detail": "other local users can open 3 memory paths: <dir>/memory (755), <dir>/memory/hymem.sqlite (640), <dir>/memory/USER.md (644); make them private: chmod 700 <dir>/memory && chmod 600 <dir>/memory/hymem.sqlite <dir>/memory/USER.md",
        "name": "file permissions",
        "status": "warn",
      }
    `)
    expect(await permissionsLine()).toMatchInlineSnapshot(
      `"  warn  file permissions  other local users can open 3 memory paths: <dir>/memory (755), <dir>/memory/hymem.sqlite (640), <dir>/memory/USER.md (644); make them private: chmod 700 <dir>/memory && chmod 600 <dir>/memory/hymem.sqlite <dir>/memory/USER.md"`,
    )

    execFileSync('sh', ['-c', check.detail.replace(/^.*make them private: /, '')])
    expect(modesUnder(root)).toMatchObject({ '.': '700', 'USER.md': '600', 'hymem.sqlite': '600' })
    expect(await permissionsLine()).toMatchInlineSnapshot(
      `"  ok    file permissions  the memory folder and files are private to their owner"`,
    )
  })
})
