import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { findLoosePermissions, type LoosePermission, sqliteFilesOf } from '@hymem/core-store'
import { WORKSPACES_FOLDER } from '../markdown-paths'

/** Where a memory's files are: its folder, and its SQLite file (null on PostgreSQL). */
export interface MemoryLocation {
  readonly root: string
  readonly databasePath: string | null
}

const MARKDOWN_FILES = ['USER.md', 'MEMORY.md']

/**
 * The memory's own files and folders that other local users can reach: the memory folder, the SQLite
 * database with its WAL, SHM and journal, and USER.md / MEMORY.md of every workspace with their folders.
 * Other files in the folder are not HyMem's and are left out.
 *
 * @example
 * const loose = findLooseMemoryFiles({ root: config.root, databasePath: config.databasePath })
 * for (const entry of loose) console.warn(`${entry.path} is ${entry.mode.toString(8)}`)
 */
export function findLooseMemoryFiles(location: MemoryLocation): LoosePermission[] {
  const workspaces = join(location.root, WORKSPACES_FOLDER)
  const folders = [location.root, ...subfolders(workspaces).map((name) => join(workspaces, name))]
  return findLoosePermissions([
    location.root,
    ...(location.databasePath === null ? [] : sqliteFilesOf(location.databasePath)),
    workspaces,
    ...folders.flatMap((folder) => [folder, ...MARKDOWN_FILES.map((file) => join(folder, file))]),
  ])
}

function subfolders(path: string): string[] {
  try {
    return readdirSync(path, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  } catch {
    return []
  }
}
