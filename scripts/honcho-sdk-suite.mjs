#!/usr/bin/env node
// Runs Honcho's own TypeScript SDK test suite (`sdks/typescript/__tests__` of a plastic-labs/honcho snapshot)
// against a fresh hymem-honcho, the way Honcho's tests/sdk_typescript/test_sdk.py does: wait for GET /docs,
// then `bun test` with HONCHO_TEST_URL and HONCHO_MAX_RETRIES=0. Nothing of Honcho is copied into this
// repository: the snapshot is read from the path given, its SDK folder copied to a temp dir and run there.
//
//   node scripts/honcho-sdk-suite.mjs <honcho-snapshot> [--database postgres://…] [--keep]
//
// Needs `pnpm build` first (it starts apps/honcho/dist/bin.js). bun 1.4.5 is installed from the npm
// registry into node_modules/.cache/honcho-sdk-suite on first use. Exit code: bun's.
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cachedNpmBinary, freePort } from './loopback-tools.mjs'

const BUN_VERSION = '1.4.5'
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const SERVER_BIN = join(REPO, 'apps', 'honcho', 'dist', 'bin.js')
const TOOLS = join(REPO, 'node_modules', '.cache', 'honcho-sdk-suite')
const SUITE_TIMEOUT_MS = 15 * 60_000

function fail(message) {
  process.stderr.write(`honcho-sdk-suite: ${message}\n`)
  process.exit(2)
}

function parseArgs(argv) {
  const options = { snapshot: null, database: null, keep: false }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--database') options.database = argv[++i] ?? fail('--database needs a URL')
    else if (arg === '--keep') options.keep = true
    else if (arg.startsWith('-')) fail(`unknown option ${arg}`)
    else if (options.snapshot === null) options.snapshot = resolve(arg)
    else fail(`unexpected argument ${arg}`)
  }
  if (options.snapshot === null) {
    fail('usage: node scripts/honcho-sdk-suite.mjs <honcho-snapshot> [--database postgres://…] [--keep]')
  }
  return options
}

function run(command, args, cwd, what) {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] })
  if (result.status !== 0) fail(`${what} failed (exit ${result.status ?? result.signal})`)
}

function bunBinary() {
  const bin = cachedNpmBinary({
    dir: TOOLS,
    spec: `bun@${BUN_VERSION}`,
    bin: '.bin/bun',
    version: BUN_VERSION,
  })
  return bin ?? fail(`installing bun@${BUN_VERSION} failed`)
}

async function waitForDocs(url, server, timeoutMs = 120_000) {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    if (server.exitCode !== null) fail(`hymem-honcho exited with code ${server.exitCode} before answering`)
    try {
      if ((await fetch(`${url}/docs`)).status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  fail(`GET ${url}/docs did not answer 200 within ${timeoutMs / 1000} s`)
}

async function main() {
  const options = parseArgs(process.argv.slice(2))
  const sdk = join(options.snapshot, 'sdks', 'typescript')
  if (!existsSync(join(sdk, '__tests__')))
    fail(`${sdk}/__tests__ not found: is this a plastic-labs/honcho snapshot?`)
  if (!existsSync(SERVER_BIN)) fail(`${SERVER_BIN} not found: run pnpm build first`)

  const work = mkdtempSync(join(tmpdir(), 'honcho-sdk-suite-'))
  const suite = join(work, 'sdk')
  cpSync(sdk, suite, {
    recursive: true,
    filter: (path) => !path.includes(`${join('typescript', 'node_modules')}`),
  })
  const bun = bunBinary()
  run(bun, ['install'], suite, 'bun install of the SDK')

  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const server = spawn(process.execPath, [SERVER_BIN], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: work,
      HYMEM_ROOT: join(work, 'hymem'),
      HYMEM_HONCHO_HOST: '127.0.0.1',
      HYMEM_HONCHO_PORT: String(port),
      ...(options.database ? { HYMEM_DATABASE_URL: options.database } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM')
      await new Promise((r) => server.once('exit', r))
    }
    if (!options.keep) rmSync(work, { recursive: true, force: true })
  }
  let code = 1
  try {
    await waitForDocs(url, server)
    process.stdout.write(
      `honcho-sdk-suite: hymem-honcho at ${url} (${options.database ? 'PostgreSQL' : 'SQLite'})\n`,
    )
    const tests = spawn(bun, ['test'], {
      cwd: suite,
      env: { ...process.env, HONCHO_TEST_URL: url, HONCHO_MAX_RETRIES: '0' },
      stdio: ['ignore', 'inherit', 'inherit'],
    })
    const timer = setTimeout(() => tests.kill('SIGTERM'), SUITE_TIMEOUT_MS)
    code = await new Promise((r) => tests.once('exit', (exit) => r(exit ?? 1)))
    clearTimeout(timer)
  } finally {
    await stop()
  }
  process.exit(code)
}

await main()
