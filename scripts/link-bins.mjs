// Puts this checkout's binaries (`hymem`, `hymem-honcho`: every `bin` of apps/*) on the PATH the way
// `npm install --global` does: a symlink to each built bin in npm's global bin folder, where scripts/setup.sh
// also puts pnpm. Safe to re-run; a link from an earlier checkout or a global npm install is replaced.
//
//   node scripts/link-bins.mjs            HYMEM_BIN_DIR=<dir> links into <dir> instead
import { execFileSync } from 'node:child_process'
import {
  accessSync,
  chmodSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import { delimiter, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const repo = resolve(fileURLToPath(new URL('..', import.meta.url)))
const say = (line) => process.stdout.write(`setup: ${line}\n`)
const fail = (line) => {
  process.stderr.write(`setup: ${line}\n`)
  process.exit(1)
}

function globalBinDir() {
  const prefix = execFileSync('npm', ['prefix', '--global'], { encoding: 'utf8' }).trim()
  return process.platform === 'win32' ? prefix : join(prefix, 'bin')
}

function appBins() {
  const apps = join(repo, 'apps')
  return readdirSync(apps, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(apps, entry.name, 'package.json')))
    .flatMap((entry) => {
      const dir = join(apps, entry.name)
      const { bin = {} } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
      return Object.entries(bin).map(([name, path]) => ({ name, target: join(dir, path) }))
    })
}

const binDir = resolve(process.env.HYMEM_BIN_DIR?.trim() || globalBinDir())
const bins = appBins()
const missing = bins.filter((bin) => !existsSync(bin.target))
if (missing.length > 0) fail(`not built yet: ${missing.map((bin) => bin.target).join(', ')} (run pnpm build)`)
try {
  mkdirSync(binDir, { recursive: true })
  accessSync(binDir, constants.W_OK)
} catch {
  const commands = bins.map((bin) => `  sudo ln -sf ${bin.target} ${join(binDir, bin.name)}`).join('\n')
  fail(
    `cannot write to ${binDir}, so ${bins.map((bin) => bin.name).join(' and ')} are not on your PATH. Either run\n${commands}\nor set HYMEM_BIN_DIR to a folder on your PATH and run node scripts/link-bins.mjs`,
  )
}
for (const { name, target } of bins) {
  const link = join(binDir, name)
  let existing = null
  try {
    existing = lstatSync(link)
  } catch {}
  if (existing && !existing.isSymbolicLink())
    fail(`${link} exists and is not a link: remove it, then re-run setup`)
  if (existing) rmSync(link)
  chmodSync(target, 0o755)
  symlinkSync(target, link)
  say(`${name} → ${target} (linked in ${binDir})`)
}
const onPath = (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && resolve(dir) === binDir)
if (!onPath) say(`${binDir} is not on your PATH: add it to run ${bins.map((bin) => bin.name).join(' and ')}`)
