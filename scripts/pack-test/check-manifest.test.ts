import { describe, expect, it } from 'vitest'
import { checkPackedManifest, type PackedContents } from './check-manifest'
import type { Manifest } from './manifest'

const SOURCE: Manifest = {
  name: '@hymem/cli',
  version: '0.1.0',
  exports: {
    '.': { '@hymem/source': './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' },
    './local': { '@hymem/source': './src/local.ts', default: './dist/local.js' },
  },
  dependencies: { hymem: 'workspace:^', commander: 'catalog:' },
}

const PACKED: Manifest = {
  name: '@hymem/cli',
  version: '0.1.0',
  license: 'MIT',
  engines: { node: '>=20.11' },
  bin: { hymem: 'dist/bin.js' },
  exports: {
    '.': { types: './dist/index.d.ts', default: './dist/index.js' },
    './local': { default: './dist/local.js' },
  },
  dependencies: { hymem: '^0.1.0', commander: '14.0.3' },
}

const FILES: Record<string, string> = {
  'package.json': '{}',
  'README.md': '# cli',
  LICENSE: 'MIT',
  'dist/index.js': 'export {}',
  'dist/index.d.ts': 'export {}',
  'dist/local.js': 'export {}',
  'dist/bin.js': '#!/usr/bin/env node\nimport "./index.js"\n',
}

function packed(manifest: Partial<Manifest> = {}, files: Record<string, string | null> = {}): PackedContents {
  const contents = Object.fromEntries(
    Object.entries({ ...FILES, ...files }).filter((entry): entry is [string, string] => entry[1] !== null),
  )
  return {
    manifest: { ...PACKED, ...manifest },
    files: new Set(Object.keys(contents)),
    readFile: (path) => contents[path] ?? '',
  }
}

const check = (contents: PackedContents, unpublished: string[] = []) =>
  checkPackedManifest(contents, SOURCE, new Set(unpublished))

describe('checkPackedManifest', () => {
  it('passes a clean package', () => {
    expect(check(packed())).toEqual([])
  })

  it('finds workspace: and catalog: protocols left in any field', () => {
    expect(
      check(packed({ dependencies: { hymem: 'workspace:^' }, devDependencies: { tsup: 'catalog:' } })),
    ).toEqual([
      'dependencies.hymem is still "workspace:^" (pnpm pack should have replaced it with a version)',
      'devDependencies.tsup is still "catalog:" (pnpm pack should have replaced it with a version)',
    ])
  })

  it('finds a bin that is missing or has no shebang', () => {
    expect(check(packed({}, { 'dist/bin.js': null }))).toEqual([
      'bin hymem → dist/bin.js is not in the tarball',
    ])
    expect(check(packed({}, { 'dist/bin.js': 'import "./index.js"\n' }))).toEqual([
      'bin hymem (dist/bin.js) does not start with "#!/usr/bin/env node"',
    ])
  })

  it('finds exports naming missing files, a published source condition and a dropped subpath', () => {
    expect(check(packed({}, { 'dist/index.d.ts': null }))).toEqual([
      'exports["."]["types"] → ./dist/index.d.ts is not in the tarball',
    ])
    expect(check(packed({ exports: SOURCE.exports }))).toEqual([
      'exports["."]["@hymem/source"] is published (give the package a publishConfig.exports without it)',
      'exports["./local"]["@hymem/source"] is published (give the package a publishConfig.exports without it)',
    ])
    expect(check(packed({ exports: { '.': './dist/index.js' } }))).toEqual([
      'exports["./local"] of the workspace package is not published (add it to publishConfig.exports)',
    ])
  })

  it('finds a "files" entry, file or folder, that the tarball lacks (globs are npm\'s business)', () => {
    const files = ['dist', 'assets/', 'CHANGELOG.md', 'docs/*.png']
    expect(check(packed({ files }, { 'assets/graph.js': 'x', 'CHANGELOG.md': '# 0.1.0' }))).toEqual([])
    expect(check(packed({ files }))).toEqual([
      '"files" names assets/, which is not in the tarball (not built?)',
      '"files" names CHANGELOG.md, which is not in the tarball (not built?)',
    ])
  })

  it('finds what npm needs besides the code: public, licence, engines, README, LICENSE', () => {
    expect(
      check(packed({ private: true, license: '', engines: {} }, { 'README.md': null, LICENSE: null })),
    ).toEqual([
      'is private: npm refuses to publish it',
      'has no "license"',
      'has no "engines.node"',
      'has no README.md',
      'has no LICENSE',
    ])
  })

  it('finds a dependency on a workspace package that is not published', () => {
    expect(
      check(packed({ dependencies: { hymem: '^0.1.0', '@hymem/bench': '^0.1.0' } }), ['@hymem/bench']),
    ).toEqual(['dependencies.@hymem/bench is a workspace package that is not published'])
  })
})
