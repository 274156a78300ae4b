/**
 * Bundles the inspector's browser code (the graph view with cytoscape, and the small page script) and its
 * stylesheet into `assets/`, which the server serves: nothing is loaded from a CDN.
 *
 *   tsx build-client.ts
 */
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const here = dirname(fileURLToPath(import.meta.url))
const clientDir = join(here, 'client')
export const ASSETS_DIR = join(here, 'assets')
const ENTRIES = { graph: 'graph.ts', page: 'page.ts', inspector: 'inspector.css' } as const
const OUTPUTS = ['graph.js', 'page.js', 'inspector.css']

function newestSource(dir: string): number {
  let newest = 0
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    const stat = statSync(path)
    newest = Math.max(newest, stat.isDirectory() ? newestSource(path) : stat.mtimeMs)
  }
  return newest
}

/** Whether every bundle exists and is newer than the client sources and the shared graph-data module. */
export function clientIsBuilt(outDir = ASSETS_DIR): boolean {
  const sources = Math.max(newestSource(clientDir), statSync(join(here, 'src', 'graph-data.ts')).mtimeMs)
  return OUTPUTS.every((file) => {
    try {
      return statSync(join(outDir, file)).mtimeMs >= sources
    } catch {
      return false
    }
  })
}

/**
 * Builds the bundles into a fresh folder and moves each file into `outDir` with one rename, so several
 * processes building at once never serve a half-written file.
 */
export async function buildClient(outDir = ASSETS_DIR): Promise<void> {
  mkdirSync(outDir, { recursive: true })
  const staging = mkdtempSync(join(outDir, '.build-'))
  try {
    await build({
      entryPoints: Object.fromEntries(
        Object.entries(ENTRIES).map(([name, file]) => [name, join(clientDir, file)]),
      ),
      outdir: staging,
      bundle: true,
      minify: true,
      format: 'iife',
      target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
      platform: 'browser',
      legalComments: 'eof',
      logLevel: 'warning',
    })
    for (const file of readdirSync(staging)) renameSync(join(staging, file), join(outDir, file))
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

/** Builds unless the bundles are already up to date. */
export async function ensureClientBuilt(outDir = ASSETS_DIR): Promise<void> {
  if (!clientIsBuilt(outDir)) await buildClient(outDir)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildClient()
  process.stdout.write(`inspector client bundles written to ${ASSETS_DIR}\n`)
}
