import { closeSync, constants, existsSync, mkdirSync, openSync, statSync } from 'node:fs'
import { dirname } from 'node:path'

/** Memory files (the database, its WAL and SHM, the Markdown files, exports): their owner reads and writes. */
export const PRIVATE_FILE_MODE = 0o600
/** Memory folders: only their owner lists, reads or enters them. */
const PRIVATE_DIRECTORY_MODE = 0o700

/**
 * Creates `directory` and its missing parents with mode 0700, one level at a time: Node's recursive mkdir
 * retries forever on some virtual file systems (a path under /proc), where a single mkdir fails cleanly.
 * Folders that exist keep their mode.
 */
export function ensurePrivateDirectory(directory: string): void {
  const missing: string[] = []
  let current = directory
  while (!existsSync(current)) {
    missing.unshift(current)
    const parent = dirname(current)
    if (parent === current) break
    current = parent
  }
  if (!statSync(current).isDirectory()) throw new Error(`${current} is a file, not a folder`)
  for (const folder of missing) {
    try {
      mkdirSync(folder, PRIVATE_DIRECTORY_MODE)
    } catch (error) {
      // Another process created it meanwhile.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(folder).isDirectory()) throw error
    }
  }
}

/** Creates `path` as an empty file with mode 0600 unless something exists there; true when it did. */
export function createPrivateFile(path: string): boolean {
  try {
    closeSync(openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, PRIVATE_FILE_MODE))
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}
