/**
 * The packaging test: packs every publishable workspace package (`pnpm pack`), checks each tarball, installs
 * them all with npm in an empty folder outside the workspace, and there runs what a new user would: the
 * README's library example, `hymem doctor --json`, `hymem-honcho` until `/health` answers (then its `/inspect`
 * page and the bundles it links), and `hymem mcp` driven by the MCP SDK client. Needs a build (`pnpm build`)
 * and the npm registry for third-party packages.
 *
 *   pnpm pack-test [--keep]     (--keep leaves the temporary folder for a look; it is kept on failure too)
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkImports } from './check-imports'
import { checkPackedManifest } from './check-manifest'
import { installTarballs } from './install'
import { packPackage, type Tarball } from './pack'
import { checkDoctor, checkLibraryExample, checkMcp, checkServer, userEnvironment } from './smoke'
import { workspacePackages } from './workspace-packages'

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const MCP_SDK = '@modelcontextprotocol/sdk'

const out = (line: string) => process.stdout.write(`${line}\n`)
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`

async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now()
  const result = await fn()
  out(`  ✓ ${name} (${seconds(started)})${typeof result === 'string' ? `: ${result}` : ''}`)
  return result
}

async function main(): Promise<number> {
  const started = performance.now()
  const keep = process.argv.includes('--keep')
  const all = workspacePackages(REPO)
  const publishable = all.filter((pkg) => !pkg.manifest.private)
  const unpublished = new Set(all.filter((pkg) => pkg.manifest.private).map((pkg) => pkg.manifest.name))
  const unbuilt = publishable.filter((pkg) => !existsSync(join(pkg.dir, 'dist')))
  if (unbuilt.length > 0) {
    out(
      `pack-test: no dist/ in ${unbuilt.map((pkg) => relative(REPO, pkg.dir)).join(', ')}: run pnpm build first`,
    )
    return 1
  }
  const work = mkdtempSync(join(tmpdir(), 'hymem-pack-test-'))
  out(`pack-test: ${publishable.length} publishable packages, working in ${work}`)
  let passed = false
  try {
    const tarballs: Tarball[] = []
    const problems: string[] = []
    mkdirSync(join(work, 'tarballs'))
    await step('pnpm pack', async () => {
      for (const pkg of publishable) {
        const tarball = await packPackage(pkg.dir, join(work, 'tarballs'))
        tarballs.push(tarball)
        const scripts = [...tarball.files]
          .filter((file) => /\.(m|c)?js$|\.d\.(m|c)?ts$/.test(file))
          .map((file): [string, string] => [file, tarball.readFile(file)])
        for (const problem of [
          ...checkPackedManifest(tarball, pkg.manifest, unpublished),
          ...checkImports(tarball.manifest, scripts),
        ]) {
          problems.push(`${tarball.manifest.name}: ${problem}`)
        }
      }
    })
    for (const tarball of tarballs) {
      const { name, version } = tarball.manifest
      out(
        `      ${`${name}@${version}`.padEnd(32)} ${kilobytes(tarball.bytes).padStart(9)}  ${tarball.files.size} files`,
      )
    }
    out(`      total ${kilobytes(tarballs.reduce((sum, tarball) => sum + tarball.bytes, 0))}`)
    if (problems.length > 0) {
      out(`pack-test: ${problems.length} packaging problem(s):`)
      for (const problem of problems) out(`  ✗ ${problem}`)
      return 1
    }
    out('  ✓ manifests, files, bins and imports')

    const project = join(work, 'project')
    mkdirSync(join(project, 'home'), { recursive: true })
    const sdk = tarballs.find((tarball) => tarball.manifest.dependencies?.[MCP_SDK])?.manifest.dependencies?.[
      MCP_SDK
    ]
    if (!sdk) throw new Error(`no published package depends on ${MCP_SDK}; the MCP check needs its version`)
    await step('npm install of the tarballs', () => installTarballs(project, tarballs, { [MCP_SDK]: sdk }))
    const folder = { dir: project, env: userEnvironment(project) }
    const cli = tarballs.find((tarball) => tarball.manifest.bin && 'hymem' in Object(tarball.manifest.bin))
    if (!cli) throw new Error('no published package provides the hymem bin')
    await step('README library example', () =>
      checkLibraryExample(folder, readFileSync(join(REPO, 'README.md'), 'utf8')),
    )
    await step('hymem --version, hymem doctor --json', () => checkDoctor(folder, cli.manifest.version))
    await step('hymem-honcho --help, /health, /inspect, SIGTERM', () => checkServer(folder))
    await step('hymem mcp with the MCP SDK client', () => checkMcp(folder))
    passed = true
    out(`pack-test: passed in ${seconds(started)}`)
    return 0
  } finally {
    if (passed && !keep) rmSync(work, { recursive: true, force: true })
    else out(`pack-test: kept ${work}`)
  }
}

function kilobytes(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} kB`
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    out(`pack-test: failed: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  },
)
