import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Manifest } from './manifest'

export interface WorkspacePackage {
  /** Absolute folder. */
  readonly dir: string
  readonly manifest: Manifest
}

const PARENTS = ['packages', 'apps']

/** Every workspace package under packages/ and apps/, published or not, in folder order. */
export function workspacePackages(repoRoot: string): WorkspacePackage[] {
  return PARENTS.flatMap((parent) =>
    readdirSync(join(repoRoot, parent), { withFileTypes: true })
      .filter(
        (entry) => entry.isDirectory() && existsSync(join(repoRoot, parent, entry.name, 'package.json')),
      )
      .map((entry) => {
        const dir = join(repoRoot, parent, entry.name)
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest
        return { dir, manifest }
      }),
  )
}
