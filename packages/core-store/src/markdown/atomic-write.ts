import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { open, realpath, rename, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { ensurePrivateDirectory, PRIVATE_FILE_MODE } from '../files'
import { StoreError } from '../kernel/errors'

/**
 * Replaces `file` with `data` so that readers see either the old or the new content, never a mix: the
 * data goes to a temporary file in the same directory, is flushed to disk, and is renamed over `file`.
 * A missing parent directory is created 0700 and a new file 0600; an existing file keeps its permission
 * bits, and a symlink stays a symlink (its target is replaced).
 */
export async function writeFileAtomic(path: string, data: Buffer): Promise<void> {
  const file = await realpath(path).catch(() => path)
  const dir = dirname(file)
  const temp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    ensurePrivateDirectory(dir)
    const mode = await stat(file).then(
      (s) => s.mode & 0o7777,
      () => PRIVATE_FILE_MODE,
    )
    const handle = await open(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, mode)
    try {
      await handle.writeFile(data)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, file)
  } catch (error) {
    await unlink(temp).catch(() => undefined)
    throw new StoreError('NOT_WRITABLE', `Cannot write ${file}: ${(error as Error).message}`, {
      cause: error,
    })
  }
  await syncDirectory(dir)
}

// Makes the rename itself durable. Some platforms cannot open a directory for syncing; the rename has
// still happened atomically there, so that failure is not an error.
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, constants.O_RDONLY)
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  } catch {
    // not supported here (e.g. Windows)
  }
}
