import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The package's `assets/` folder: one level above both `src/` (tests) and `dist/` (the build). */
export const DEFAULT_ASSETS_DIR = fileURLToPath(new URL('../assets/', import.meta.url))

const TYPES: Record<string, string> = {
  'graph.js': 'text/javascript; charset=utf-8',
  'page.js': 'text/javascript; charset=utf-8',
  'inspector.css': 'text/css; charset=utf-8',
}

const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="9" cy="9" r="5" fill="#0072b2"/><circle cx="23" cy="12" r="5" fill="#e69f00"/><circle cx="14" cy="24" r="5" fill="#009e73"/><path d="M9 9L23 12L14 24Z" fill="none" stroke="#444" stroke-width="1.5"/></svg>`

export interface Asset {
  readonly body: string
  readonly type: string
  /** Short content hash, used as the version in asset URLs. */
  readonly version: string
}

/** Serves the built bundles (read once, then kept in memory) and the favicon. */
export class AssetStore {
  readonly #dir: string
  readonly #cache = new Map<string, Asset>()

  constructor(dir: string) {
    this.#dir = dir.endsWith('/') ? dir : `${dir}/`
  }

  /** The asset, or null when the name is unknown. Throws with a fix when a bundle was never built. */
  get(name: string): Asset | null {
    const cached = this.#cache.get(name)
    if (cached) return cached
    let asset: Asset
    if (name === 'favicon.svg') {
      asset = { body: FAVICON, type: 'image/svg+xml', version: hash(FAVICON) }
    } else {
      const type = TYPES[name]
      if (!type) return null
      let body: string
      try {
        body = readFileSync(`${this.#dir}${name}`, 'utf8')
      } catch (error) {
        throw new Error(
          `the inspector bundle ${name} is missing from ${this.#dir}: build it with pnpm --filter @hymem/inspector build`,
          { cause: error },
        )
      }
      asset = { body, type, version: hash(body) }
    }
    this.#cache.set(name, asset)
    return asset
  }

  /** `name?v=<hash>`, or the bare name when the bundle is missing (the request then reports how to build it). */
  versioned(name: string): string {
    try {
      const asset = this.get(name)
      return asset ? `${name}?v=${asset.version}` : name
    } catch {
      return name
    }
  }
}

function hash(body: string): string {
  return createHash('sha256').update(body).digest('hex').slice(0, 12)
}
