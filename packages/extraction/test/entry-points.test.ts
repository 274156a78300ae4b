import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = join(import.meta.dirname, '../src')

/** Every source file reachable from `entry` through relative imports, with its bare (package) imports. */
function importGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  const visit = (file: string) => {
    if (graph.has(file)) return
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '')
    const specs = [...text.matchAll(/(?:import|export)[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/g)].map(
      (m) => m[1] ?? m[2] ?? '',
    )
    graph.set(
      file,
      specs.filter((s) => !s.startsWith('.')),
    )
    for (const s of specs.filter((x) => x.startsWith('.'))) visit(`${resolve(dirname(file), s)}.ts`)
  }
  visit(join(SRC, entry))
  return graph
}

describe('entry points', () => {
  it('keeps the main entry free of the local model, the test server and workspace packages', () => {
    const graph = importGraph('index.ts')
    const files = [...graph.keys()].map((f) => f.slice(SRC.length + 1))
    expect(files).not.toContain('local.ts')
    expect(files.some((f) => f.startsWith('testing'))).toBe(false)
    const packages = new Set([...graph.values()].flat())
    expect([...packages].sort()).toEqual(['openai', 'p-limit', 'valibot'])
  })

  it('loads TensorFlow.js only lazily from the local entry', () => {
    const local = readFileSync(join(SRC, 'local.ts'), 'utf8')
    expect(local).not.toMatch(/^import[^(]*@energetic-ai/m)
    expect(local).toMatch(/await import\('@energetic-ai\/embeddings'\)/)
  })
})
