import { type ChildProcess, spawn } from 'node:child_process'
import { copyFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { libraryExample } from './readme-example'
import { runOk, tail } from './run-process'

/** Where the tarballs are installed, and the environment every check runs in. */
export interface InstallFolder {
  readonly dir: string
  readonly env: NodeJS.ProcessEnv
}

/**
 * The environment of a new user's shell: no HYMEM_* settings or LLM keys from the caller's, no npm or pnpm
 * run-script variables, HOME inside the install folder (so `~/.hermes` is too), no colours.
 */
export function userEnvironment(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(HYMEM_|DEEPSEEK_API_KEY$|npm_|PNPM_|pnpm_)/.test(name)) continue
    env[name] = value
  }
  return { ...env, HOME: join(dir, 'home'), NO_COLOR: '1' }
}

/** The path of an installed bin, as npm linked it (so it runs through its shebang). */
export function binPath(folder: InstallFolder, name: string): string {
  return join(folder.dir, 'node_modules', '.bin', name)
}

/** Runs the README's library example as written; it must print at least one fact. */
export async function checkLibraryExample(folder: InstallFolder, readme: string): Promise<string> {
  writeFileSync(join(folder.dir, 'readme-example.mjs'), libraryExample(readme))
  const { stdout } = await runOk('node', ['readme-example.mjs'], { cwd: folder.dir, env: folder.env })
  const lines = stdout
    .trim()
    .split('\n')
    .filter((line) => line !== '')
  if (lines.length === 0) throw new Error('the README library example printed no fact')
  return `${lines.length} fact(s), first: ${lines[0]}`
}

/** `hymem --version` and `hymem doctor --json`: every check passes (warnings allowed). */
export async function checkDoctor(folder: InstallFolder, version: string): Promise<string> {
  const hymem = binPath(folder, 'hymem')
  const env = { ...folder.env, HYMEM_ROOT: join(folder.dir, 'doctor') }
  const printed = (await runOk(hymem, ['--version'], { cwd: folder.dir, env })).stdout.trim()
  if (printed !== version)
    throw new Error(`hymem --version printed ${JSON.stringify(printed)}, not ${version}`)
  const { stdout } = await runOk(hymem, ['doctor', '--json'], { cwd: folder.dir, env })
  const report = JSON.parse(stdout) as { ok: boolean; checks: { name: string; status: string }[] }
  if (!report.ok) throw new Error(`hymem doctor --json reported failures:\n${stdout}`)
  const count = (status: string) => report.checks.filter((check) => check.status === status).length
  return `hymem ${printed}; doctor: ${count('ok')} ok, ${count('warn')} warning(s)`
}

/**
 * `hymem-honcho --help`, then the server until `/health` answers, then the inspector's page and the bundles it
 * links (built into @hymem/inspector's `assets/`), then SIGTERM: it must exit 0.
 */
export async function checkServer(folder: InstallFolder): Promise<string> {
  const bin = binPath(folder, 'hymem-honcho')
  const help = (await runOk(bin, ['--help'], { cwd: folder.dir, env: folder.env })).stdout
  for (const expected of ['--port <number>', 'HYMEM_ROOT', 'HYMEM_AUTH_TOKENS', 'SIGTERM', '/inspect']) {
    if (!help.includes(expected)) throw new Error(`hymem-honcho --help does not mention ${expected}`)
  }
  const port = await freePort()
  const env = { ...folder.env, HYMEM_ROOT: join(folder.dir, 'server'), HYMEM_HONCHO_PORT: String(port) }
  const child = spawn(bin, [], { cwd: folder.dir, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk) => {
    output += String(chunk)
  })
  child.stderr.on('data', (chunk) => {
    output += String(chunk)
  })
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve))
  let inspector: string
  try {
    await waitForHealth(`http://127.0.0.1:${port}/health`, child, () => output)
    inspector = await checkInspector(`http://127.0.0.1:${port}`)
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
  child.kill('SIGTERM')
  const code = await Promise.race([exited, sleep(30_000).then(() => 'timeout' as const)])
  if (code !== 0) {
    child.kill('SIGKILL')
    throw new Error(`hymem-honcho did not exit 0 on SIGTERM (${code})\n${tail(output)}`)
  }
  const started = output.split('\n').find((line) => line.startsWith('hymem-honcho listening')) ?? 'started'
  return `${started}; ${inspector}`
}

const INSPECTOR_BUNDLES = ['graph.js', 'page.js', 'inspector.css']

/** `/inspect` leads to the graph page, and every bundle that page links is served. */
async function checkInspector(base: string): Promise<string> {
  const page = await fetch(`${base}/inspect`)
  const html = await page.text()
  if (page.status !== 200 || !page.url.endsWith('/inspect/w/default/graph'))
    throw new Error(
      `GET /inspect ended at ${page.url} with ${page.status}, not the graph page:\n${tail(html)}`,
    )
  const linked = [...html.matchAll(/"(\/inspect\/assets\/([^"?]+)[^"]*)"/g)]
  for (const bundle of INSPECTOR_BUNDLES) {
    if (!linked.some((match) => match[2] === bundle))
      throw new Error(`the inspector's graph page does not link ${bundle}`)
  }
  for (const [, path] of linked) {
    const asset = await fetch(`${base}${path}`)
    const body = await asset.text()
    if (asset.status !== 200 || body.length === 0)
      throw new Error(`GET ${path} answered ${asset.status} (${body.length} bytes):\n${tail(body)}`)
  }
  return `/inspect and its ${linked.length} assets served`
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`hymem-honcho exited ${child.exitCode}\n${tail(output())}`)
    const status = await fetch(url).then(
      (response) => response.status,
      () => null,
    )
    if (status === 200) return
    await sleep(100)
  }
  throw new Error(`hymem-honcho: ${url} did not answer 200 within 60 s\n${tail(output())}`)
}

/** `hymem mcp` driven by the MCP SDK client over stdio: tools listed, a memory saved and found again. */
export async function checkMcp(folder: InstallFolder): Promise<string> {
  const client = join(folder.dir, 'mcp-client.mjs')
  copyFileSync(fileURLToPath(new URL('./fixtures/mcp-client.mjs', import.meta.url)), client)
  const env = { ...folder.env, HYMEM_ROOT: join(folder.dir, 'mcp') }
  const { stdout } = await runOk('node', [client, binPath(folder, 'hymem'), 'pack-test'], {
    cwd: folder.dir,
    env,
  })
  const result = JSON.parse(stdout) as {
    tools: string[]
    saved: { isError: boolean; text: string }
    found: { isError: boolean; text: string }
  }
  for (const tool of ['hymem_remember', 'hymem_search', 'hymem_augment', 'hymem_usage_guide']) {
    if (!result.tools.includes(tool))
      throw new Error(`hymem mcp does not list ${tool}: ${result.tools.join(', ')}`)
  }
  if (result.saved.isError) throw new Error(`hymem_remember failed: ${result.saved.text}`)
  if (result.found.isError || !result.found.text.includes('Deploy day')) {
    throw new Error(`hymem_search did not find the saved memory: ${result.found.text}`)
  }
  return `${result.tools.length} tools; remember, then search found it`
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}
