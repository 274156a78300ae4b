import { readManagedFile } from '@hymem/core-store'
import type { QueryLogger } from './types'

/** The content handed in, else the file's text (`''` when missing or unreadable; a failure is logged). */
export async function profileText(
  given: string | undefined,
  path: string | undefined,
  log: QueryLogger | undefined,
): Promise<string> {
  if (typeof given === 'string') return given
  if (!path) return ''
  try {
    return await readManagedFile(path)
  } catch (error) {
    log?.({ kind: 'profile-read-failed', path, error })
    return ''
  }
}
