import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

const here = dirname(fileURLToPath(import.meta.url))
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href

/**
 * Imports `entries` in a fresh Node process, runs `then` (with `entry`, the last module imported) and reports
 * which drivers the process loaded.
 */
function driversLoadedBy(entries: string[], then = ''): { sqlite: boolean; pg: boolean } {
  const urls = entries.map((entry) => pathToFileURL(join(here, entry)).href)
  const script = `
    import { createRequire } from 'node:module'
    let entry
    for (const url of ${JSON.stringify(urls)}) entry = await import(url)
    ${then}
    const loaded = Object.keys(createRequire(import.meta.url).cache)
    console.log(JSON.stringify({
      sqlite: loaded.some((path) => path.includes('better-sqlite3')),
      pg: loaded.some((path) => /[\\\\/]node_modules[\\\\/]pg[\\\\/]/.test(path)),
    }))`
  const result = spawnSync(process.execPath, ['--import', tsxLoader, '--input-type=module', '-e', script], {
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(result.stderr)
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}')
}

describe('which driver each entry loads', () => {
  it('the PostgreSQL entry (with the main one) never loads better-sqlite3', () => {
    expect(driversLoadedBy(['index.ts', '../../index.ts'])).toEqual({ sqlite: false, pg: true })
  })

  it('the main entry loads neither driver until a SQLite store is opened', () => {
    expect(driversLoadedBy(['../../index.ts'])).toEqual({ sqlite: false, pg: false })
    expect(
      driversLoadedBy(['../../index.ts'], "await entry.openStore({ path: ':memory:' }).close()"),
    ).toEqual({
      sqlite: true,
      pg: false,
    })
  })
})
