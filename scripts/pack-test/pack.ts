import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { PackedContents } from './check-manifest'
import type { Manifest } from './manifest'
import { runOk } from './run-process'

export interface Tarball extends PackedContents {
  /** Absolute path of the .tgz. */
  readonly file: string
  readonly bytes: number
  /** Where it was unpacked (the `package/` folder). */
  readonly root: string
}

/** `pnpm pack`s one workspace package into `destination` and unpacks it next to the tarball. */
export async function packPackage(dir: string, destination: string): Promise<Tarball> {
  const { stdout } = await runOk('pnpm', ['pack', '--pack-destination', destination, '--json'], { cwd: dir })
  const { filename } = JSON.parse(stdout) as { filename: string }
  const unpacked = join(destination, `${relative(destination, filename).replace(/\.tgz$/, '')}`)
  mkdirSync(unpacked, { recursive: true })
  await runOk('tar', ['-xzf', filename, '-C', unpacked], { cwd: destination })
  const root = join(unpacked, 'package')
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest
  return {
    file: filename,
    bytes: statSync(filename).size,
    root,
    manifest,
    files: new Set(listFiles(root)),
    readFile: (path) => readFileSync(join(root, path), 'utf8'),
  }
}

function listFiles(root: string, under = ''): string[] {
  return readdirSync(join(root, under), { withFileTypes: true }).flatMap((entry) => {
    const path = under === '' ? entry.name : `${under}/${entry.name}`
    return entry.isDirectory() ? listFiles(root, path) : [path]
  })
}
