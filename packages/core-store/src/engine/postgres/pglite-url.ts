import { resolve } from 'node:path'
import { StoreError } from '../../kernel/errors'
import type { PGliteLike } from './connection'

/** A PGlite the store created itself (from a `pglite:` URL) and closes with its last store. */
export interface OwnedPglite extends PGliteLike {
  close(): Promise<void>
}

const PGLITE_SCHEME = /^pglite:/i

/** Whether `url` names an in-process PGlite (`pglite:memory`, `pglite:///data/dir`) rather than a server. */
export function isPgliteUrl(url: string): boolean {
  return PGLITE_SCHEME.test(url)
}

/**
 * The data folder a `pglite:` URL names, or null for `pglite:memory` (nothing kept). `pglite:///abs/dir` and
 * `pglite:relative/dir` (from the working directory) both work.
 */
export function pgliteDataDir(url: string): string | null {
  const rest = url.replace(PGLITE_SCHEME, '').replace(/^\/\/(?=\/)/, '')
  if (rest === 'memory' || rest === '//memory') return null
  if (rest === '' || rest === '//') {
    throw new StoreError(
      'INVALID_INPUT',
      `a pglite URL names a data folder (pglite:///var/lib/hymem-pglite) or pglite:memory, not ${JSON.stringify(url)}`,
    )
  }
  return resolve(decodeURIComponent(rest))
}

/**
 * Creates the in-process PGlite a `pglite:` URL names, with the `vector` and `unaccent` extensions. PGlite is
 * for tests and development: one process at a time may open a data folder.
 */
export async function createPgliteFromUrl(url: string): Promise<OwnedPglite> {
  const dataDir = pgliteDataDir(url)
  let modules: [typeof import('@electric-sql/pglite'), { vector: unknown }, { unaccent: unknown }]
  try {
    modules = await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite-pgvector'),
      import('@electric-sql/pglite/contrib/unaccent'),
    ])
  } catch (error) {
    throw new StoreError(
      'MISSING_DEPENDENCY',
      `a pglite: database needs @electric-sql/pglite and @electric-sql/pglite-pgvector installed next to @hymem/core-store (${(error as Error).message})`,
      { cause: error },
    )
  }
  const [{ PGlite }, { vector }, { unaccent }] = modules
  const extensions = { vector, unaccent } as never
  try {
    return dataDir === null
      ? await PGlite.create({ extensions })
      : await PGlite.create({ dataDir, extensions })
  } catch (error) {
    throw new StoreError(
      'INVALID_INPUT',
      `cannot open the PGlite data folder ${dataDir ?? '(memory)'}: ${(error as Error).message} (is another process using it?)`,
      { cause: error },
    )
  }
}
