import { binEntries, exportTargets, type Manifest, packagePath } from './manifest'

/** A packed package as the checks see it. */
export interface PackedContents {
  /** The manifest inside the tarball. */
  readonly manifest: Manifest
  /** Paths inside the package, `/`-separated (`dist/index.js`). */
  readonly files: ReadonlySet<string>
  readFile(path: string): string
}

/** The condition that points the workspace at TypeScript sources; it must not be published. */
export const SOURCE_CONDITION = '@hymem/source'
const SHEBANG = '#!/usr/bin/env node'

/**
 * Problems with a packed package, one sentence each: protocols pnpm should have rewritten, files the
 * manifest names (`files`, `main`, `types`, bins, exports) that the tarball lacks, bins without their shebang, exports that differ from the
 * workspace's, workspace dependencies that are not published, missing licence, engines or README.
 */
export function checkPackedManifest(
  packed: PackedContents,
  source: Manifest,
  unpublished: ReadonlySet<string>,
): string[] {
  const { manifest, files } = packed
  const problems: string[] = [...leftoverProtocols(manifest)]
  const has = (path: string) => files.has(packagePath(path))
  if (manifest.private) problems.push('is private: npm refuses to publish it')
  if (!manifest.license) problems.push('has no "license"')
  if (!manifest.engines?.node) problems.push('has no "engines.node"')
  for (const file of ['README.md', 'LICENSE']) if (!files.has(file)) problems.push(`has no ${file}`)
  for (const entry of manifest.files ?? []) {
    if (/[*?!]/.test(entry)) continue
    const path = packagePath(entry).replace(/\/$/, '')
    if (!files.has(path) && ![...files].some((file) => file.startsWith(`${path}/`)))
      problems.push(`"files" names ${entry}, which is not in the tarball (not built?)`)
  }
  for (const field of ['main', 'types'] as const) {
    const path = manifest[field]
    if (path !== undefined && !has(path))
      problems.push(`"${field}" names ${path}, which is not in the tarball`)
  }
  for (const [name, path] of binEntries(manifest)) {
    if (!has(path)) problems.push(`bin ${name} → ${path} is not in the tarball`)
    else if (!packed.readFile(packagePath(path)).startsWith(`${SHEBANG}\n`)) {
      problems.push(`bin ${name} (${path}) does not start with "${SHEBANG}"`)
    }
  }
  problems.push(...exportProblems(manifest.exports, source.exports, files))
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'] as const) {
    for (const name of Object.keys(manifest[field] ?? {})) {
      if (unpublished.has(name))
        problems.push(`${field}.${name} is a workspace package that is not published`)
    }
  }
  return problems
}

function leftoverProtocols(value: unknown, path = ''): string[] {
  if (typeof value === 'string') {
    return /^(workspace|catalog):/.test(value)
      ? [`${path} is still "${value}" (pnpm pack should have replaced it with a version)`]
      : []
  }
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) =>
      leftoverProtocols(inner, path === '' ? key : `${path}.${key}`),
    )
  }
  return []
}

function exportProblems(packed: unknown, source: unknown, files: ReadonlySet<string>): string[] {
  const problems: string[] = []
  const targets = exportTargets(packed)
  for (const { subpath, conditions, target } of targets) {
    const at = `exports["${subpath}"]${conditions.map((condition) => `["${condition}"]`).join('')}`
    if (conditions.includes(SOURCE_CONDITION)) {
      problems.push(`${at} is published (give the package a publishConfig.exports without it)`)
    } else if (!matchesAFile(packagePath(target), files)) {
      problems.push(`${at} → ${target} is not in the tarball`)
    }
  }
  const published = new Set(targets.map((target) => target.subpath))
  for (const subpath of new Set(exportTargets(source).map((target) => target.subpath))) {
    if (!published.has(subpath)) {
      problems.push(
        `exports["${subpath}"] of the workspace package is not published (add it to publishConfig.exports)`,
      )
    }
  }
  return problems
}

function matchesAFile(pattern: string, files: ReadonlySet<string>): boolean {
  if (!pattern.includes('*')) return files.has(pattern)
  const [before = '', after = ''] = pattern.split('*')
  return [...files].some((file) => file.startsWith(before) && file.endsWith(after))
}
