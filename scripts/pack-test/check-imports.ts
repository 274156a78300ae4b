import { builtinModules } from 'node:module'
import ts from 'typescript'
import { type Manifest, runtimeDependencies } from './manifest'

const BUILTINS = new Set(builtinModules)

/** Every module specifier a JavaScript file imports: static, dynamic, re-exports and `require()`. */
export function importedSpecifiers(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName)
}

/** The package a specifier resolves into, or null for relative paths, imports maps and Node built-ins. */
export function packageOf(specifier: string): string | null {
  if (/^(\.|\/|#|node:|data:|file:)/.test(specifier)) return null
  const parts = specifier.split('/')
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier)
  return BUILTINS.has(name) ? null : name
}

/** The DefinitelyTyped package that types `name` (`@types/node`, `@types/scope__pkg`). */
function typesPackage(name: string): string {
  return `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`
}

/**
 * Problems with what a package's JavaScript and declaration files import: a package it does not depend on
 * (it would only work when something else happens to install it), or one it lists as a devDependency only.
 * A dependency on `@types/x` covers `x`.
 */
export function checkImports(
  manifest: Manifest,
  scripts: Iterable<[path: string, source: string]>,
): string[] {
  const allowed = runtimeDependencies(manifest)
  const dev = new Set(Object.keys(manifest.devDependencies ?? {}))
  const reported = new Map<string, string>()
  for (const [path, source] of scripts) {
    for (const specifier of importedSpecifiers(source)) {
      const name = packageOf(specifier)
      if (name === null || allowed.has(name) || allowed.has(typesPackage(name)) || reported.has(name))
        continue
      reported.set(
        name,
        dev.has(name)
          ? `${path} imports ${specifier}, which is only a devDependency`
          : `${path} imports ${specifier}, which is not among its dependencies`,
      )
    }
  }
  return [...reported.values()]
}
