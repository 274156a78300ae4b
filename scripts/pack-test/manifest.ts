/** The fields of a package.json the packaging test reads. */
export interface Manifest {
  readonly name: string
  readonly version: string
  readonly private?: boolean
  readonly license?: string
  readonly engines?: { readonly node?: string }
  readonly bin?: string | Readonly<Record<string, string>>
  /** What npm packs besides the files it always includes: paths, folders or globs. */
  readonly files?: readonly string[]
  readonly main?: string
  readonly types?: string
  readonly exports?: unknown
  readonly publishConfig?: { readonly exports?: unknown }
  readonly dependencies?: Readonly<Record<string, string>>
  readonly peerDependencies?: Readonly<Record<string, string>>
  readonly optionalDependencies?: Readonly<Record<string, string>>
  readonly devDependencies?: Readonly<Record<string, string>>
}

/** The names a package may import at run time: its dependencies of every kind but dev, and itself. */
export function runtimeDependencies(manifest: Manifest): Set<string> {
  return new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
  ])
}

/** `bin` as name → path pairs (a string `bin` is named after the unscoped package name). */
export function binEntries(manifest: Manifest): [name: string, path: string][] {
  if (manifest.bin === undefined) return []
  if (typeof manifest.bin === 'string') return [[manifest.name.replace(/^@[^/]+\//, ''), manifest.bin]]
  return Object.entries(manifest.bin)
}

/** One leaf of an `exports` map: the subpath, the conditions leading to it and the file it names. */
export interface ExportTarget {
  readonly subpath: string
  readonly conditions: readonly string[]
  readonly target: string
}

/** Every file an `exports` field names, with its subpath and conditions. */
export function exportTargets(exports: unknown): ExportTarget[] {
  if (exports === undefined || exports === null) return []
  if (typeof exports === 'string' || Array.isArray(exports)) return leaves('.', [], exports)
  const entries = Object.entries(exports as Record<string, unknown>)
  // Either a map of subpaths ('.', './local') or the conditions of '.' directly.
  if (entries.every(([key]) => key.startsWith('.'))) {
    return entries.flatMap(([subpath, value]) => leaves(subpath, [], value))
  }
  return leaves('.', [], exports)
}

function leaves(subpath: string, conditions: string[], value: unknown): ExportTarget[] {
  if (typeof value === 'string') return [{ subpath, conditions, target: value }]
  if (Array.isArray(value)) return value.flatMap((item) => leaves(subpath, conditions, item))
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([condition, inner]) =>
      leaves(subpath, [...conditions, condition], inner),
    )
  }
  return [] // null: an excluded subpath
}

/** A path from package.json (`./dist/x.js`, `dist/x.js`) as a tarball path (`dist/x.js`). */
export function packagePath(path: string): string {
  return path.replace(/^\.\//, '')
}
