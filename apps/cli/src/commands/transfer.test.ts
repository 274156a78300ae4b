import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { captureContext, tempDir } from '../../test/harness'
import { seedRoot } from '../../test/seed'
import { runCli } from '../run'
import { exportCommand, importCommand, renderImportReport } from './transfer'

describe('hymem export / import', () => {
  let dir: string
  let cleanup: () => void
  beforeEach(() => {
    ;({ dir, cleanup } = tempDir())
  })
  afterEach(() => cleanup())

  it('round-trips: import(export(x)) exports the same lines, and a second import skips everything', async () => {
    const source = join(dir, 'source')
    const target = join(dir, 'target')
    await seedRoot(source)
    const dump = join(dir, 'dump.jsonl')
    const exported = captureContext({ env: { HYMEM_ROOT: source }, cwd: dir })
    expect(await runCli(['export', '--out', 'dump.jsonl'], exported.ctx)).toBe(0)
    expect(exported.stderr()).toMatch(/^Exported \d+ records to dump.jsonl\n$/)
    expect(readdirSync(dir).sort()).toEqual(['dump.jsonl', 'source'])

    const first = captureContext({ env: { HYMEM_ROOT: target } })
    const report = await importCommand(dump, {}, first.ctx)
    expect(Object.values(report.skipped).reduce((a, b) => a + b, 0)).toBe(0)
    expect(report.inserted).toMatchObject({ workspace: 1, session: 2, message: 5 })
    expect(first.stdout()).toBe(renderImportReport(report, dump))

    const again = captureContext({ env: { HYMEM_ROOT: target } })
    const second = await importCommand(dump, { json: true }, again.ctx)
    expect(Object.values(second.inserted).reduce((a, b) => a + b, 0)).toBe(0)
    expect(second.skipped).toEqual(report.inserted)

    const reexported = captureContext({ env: { HYMEM_ROOT: target } })
    await exportCommand({}, reexported.ctx)
    expect(reexported.stdout()).toBe(readFileSync(dump, 'utf8'))
  })

  it('carries the stored vectors with --with-vectors; the import keeps them instead of re-embedding', async () => {
    const env = { HYMEM_EMBEDDING_PROVIDER: 'fake' }
    await seedRoot(join(dir, 'source'), { env })
    const exported = captureContext({ env: { ...env, HYMEM_ROOT: join(dir, 'source') } })
    expect(await runCli(['export', '--with-vectors'], exported.ctx)).toBe(0)
    const records = exported
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(records[0]).toMatchObject({ type: 'header', version: 2, vectors: true })
    expect(records.filter((r) => r.type === 'vector-index').map((r) => r.index)).toContain('chunks')
    expect(records.find((r) => r.type === 'chunk')?.vector).toMatchObject({ model: expect.any(String) })
    const dump = join(dir, 'dump.jsonl')
    writeFileSync(dump, exported.stdout())
    const imported = captureContext({ env: { ...env, HYMEM_ROOT: join(dir, 'target') } })
    const report = await importCommand(dump, {}, imported.ctx)
    expect(report.embedded).toBe(0)
    expect(report.inserted).toMatchObject({ chunk: records.filter((r) => r.type === 'chunk').length })
  })

  it('exports one workspace with --workspace, to stdout by default', async () => {
    await seedRoot(dir)
    await seedRoot(dir, { env: { HYMEM_WORKSPACE: 'other' } })
    const all = captureContext({ env: { HYMEM_ROOT: dir } })
    await exportCommand({}, all.ctx)
    const one = captureContext({ env: { HYMEM_ROOT: dir } })
    expect(await runCli(['export', '--workspace', 'other'], one.ctx)).toBe(0)
    const workspaces = (text: string) =>
      new Set(
        text
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line))
          .filter((record) => record.type === 'workspace')
          .map((record) => record.id),
      )
    expect(workspaces(all.stdout())).toEqual(new Set(['default', 'other']))
    expect(workspaces(one.stdout())).toEqual(new Set(['other']))
  })

  it('refuses an invalid dump as a whole, with one line and exit 1', async () => {
    const bad = join(dir, 'bad.jsonl')
    writeFileSync(bad, '{"type":"message","id":"m1"}\nnot json\n')
    const { ctx, stderr } = captureContext({ env: { HYMEM_ROOT: join(dir, 'root') } })
    expect(await runCli(['import', bad], ctx)).toBe(1)
    const errors = stderr()
      .split('\n')
      .filter((line) => line.startsWith('error:'))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^error: nothing imported, the dump is invalid/)
    expect(stderr()).not.toContain('    at ')
  })

  it('reads a dump from stdin', async () => {
    await seedRoot(join(dir, 'source'))
    const exported = captureContext({ env: { HYMEM_ROOT: join(dir, 'source') } })
    await exportCommand({ out: '-' }, exported.ctx)
    const { ctx } = captureContext({ env: { HYMEM_ROOT: join(dir, 'target') }, stdin: exported.stdout() })
    const report = await importCommand('-', {}, ctx)
    expect(report.inserted.message).toBe(5)
  })

  it('stops with one line when the output cannot be written, leaving no temporary file', async () => {
    await seedRoot(dir)
    const { ctx, stderr } = captureContext({ env: { HYMEM_ROOT: dir }, cwd: dir })
    expect(await runCli(['export', '--out', 'missing-folder/dump.jsonl'], ctx)).toBe(1)
    expect(stderr().replace(dir, '<dir>')).toMatchInlineSnapshot(`
      "error: cannot write <dir>/missing-folder/dump.jsonl: no such file or directory (check the path)
      "
    `)
    expect(existsSync(join(dir, 'missing-folder'))).toBe(false)
  })
})
