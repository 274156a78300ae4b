import { type Stats, statSync } from 'node:fs'

/** A memory file or folder that other local users can reach. */
export interface LoosePermission {
  readonly path: string
  readonly kind: 'file' | 'directory'
  /** The permission bits, e.g. `0o644`. */
  readonly mode: number
}

/** Group and other bits: any of them lets another local user read, change or list a memory. */
const SHARED_BITS = 0o077

/**
 * The paths among `paths` that exist and give their group or other users any access (their target, for a
 * symlink); paths that are missing or cannot be looked at (under a file, behind a closed folder) are skipped.
 */
export function findLoosePermissions(paths: readonly string[]): LoosePermission[] {
  const loose: LoosePermission[] = []
  for (const path of new Set(paths)) {
    const stats = statOrNull(path)
    if (!stats || (stats.mode & SHARED_BITS) === 0) continue
    loose.push({ path, kind: stats.isDirectory() ? 'directory' : 'file', mode: stats.mode & 0o7777 })
  }
  return loose
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path)
  } catch {
    return null
  }
}
