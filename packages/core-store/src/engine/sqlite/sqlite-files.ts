/** The files SQLite keeps for the database at `path`: the database, its write-ahead log, shared memory and rollback journal. */
export function sqliteFilesOf(path: string): readonly string[] {
  return [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]
}
