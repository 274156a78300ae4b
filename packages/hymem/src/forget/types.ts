import type { Purge } from '@hymem/core-store'

/**
 * The receipt of a deletion: what was forgotten (ids, never content), rows removed by kind, and how far the
 * purge is. `rows-removed`: no read returns the content any more; `done`: it is gone from the database
 * file, its write-ahead log and the Markdown files as well.
 */
export type DeletionReceipt = Purge

/** Options of the `forget*` methods. */
export interface ForgetOptions {
  readonly workspaceId?: string
  /**
   * Wait until the content is gone from disk too (the receipt is then `done`). Otherwise the call returns
   * once every read excludes the content, and the rest of the purge runs in the background. @default false
   */
  readonly wait?: boolean
}
