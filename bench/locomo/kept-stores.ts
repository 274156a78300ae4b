/**
 * Dreamed stores kept between evaluation runs (`--keep-stores <folder>`): dreaming a BEAM-500K chat takes
 * minutes, asking its questions seconds, so query experiments reuse one dreamed store per conversation.
 * A store is reused only when its conversation, embedder and dream settings are the ones it was dreamed
 * with; dreaming code is not part of that key, so empty the folder after changing it.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const MANIFEST = 'kept.json'

interface Manifest {
  readonly key: string
  readonly turnOf: readonly (readonly [number, string])[]
}

/** What a kept store was dreamed from: any change means dreaming again. */
export function keptStoreKey(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex')
}

/** The kept store's `messages.id` → turn map when `folder` holds a finished store dreamed under `key`. */
export function readKeptStore(folder: string, key: string): Map<number, string> | null {
  const path = join(folder, MANIFEST)
  if (!existsSync(path)) return null
  try {
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest
    return manifest.key === key ? new Map(manifest.turnOf) : null
  } catch {
    return null
  }
}

/** Empties `folder` for a store about to be dreamed (a stale or half-dreamed one is never reused). */
export function clearKeptStore(folder: string): void {
  rmSync(folder, { recursive: true, force: true })
  mkdirSync(folder, { recursive: true })
}

/** Marks the store in `folder` finished; written last, so a run killed while dreaming leaves no manifest. */
export function markKeptStore(folder: string, key: string, turnOf: ReadonlyMap<number, string>): void {
  const manifest: Manifest = { key, turnOf: [...turnOf] }
  writeFileSync(join(folder, MANIFEST), JSON.stringify(manifest))
}
