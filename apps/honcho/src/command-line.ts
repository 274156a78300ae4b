import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { ENV_VARIABLES } from 'hymem'

/** The server's version, from its package.json (`src/` and `dist/` sit at the same depth). */
export const SERVER_VERSION: string = (
  createRequire(import.meta.url)('../package.json') as { version: string }
).version

/** Each flag overrides one environment variable. */
const FLAGS = [
  { name: 'root', value: '<dir>', variable: 'HYMEM_ROOT' },
  { name: 'workspace', value: '<id>', variable: 'HYMEM_WORKSPACE' },
  { name: 'host', value: '<address>', variable: 'HYMEM_HONCHO_HOST' },
  { name: 'port', value: '<number>', variable: 'HYMEM_HONCHO_PORT' },
  { name: 'log-level', value: '<level>', variable: 'HYMEM_LOG_LEVEL' },
] as const

type Env = Readonly<Record<string, string | undefined>>

/** What the command line asks for. */
export type CommandLine =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'usage-error'; readonly message: string }
  | {
      readonly kind: 'serve'
      /** The environment with the flags applied. */
      readonly env: Env
      /** Rewrites a configuration message to name the flag the user typed instead of its variable. */
      readonly nameFlags: (line: string) => string
    }

/** Parses `hymem-honcho`'s arguments (without the node and script paths); never throws. */
export function parseCommandLine(argv: readonly string[], env: Env, cwd: string): CommandLine {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(argv)
  } catch (error) {
    return { kind: 'usage-error', message: (error as Error).message }
  }
  const { values, positionals } = parsed
  if (values.help) return { kind: 'help' }
  if (values.version) return { kind: 'version' }
  if (positionals.length > 0) {
    return { kind: 'usage-error', message: `unexpected argument ${JSON.stringify(positionals[0])}` }
  }
  const overrides: Record<string, string> = {}
  const renames: [variable: string, flag: string][] = []
  for (const flag of FLAGS) {
    const value = values[flag.name]
    if (value === undefined) continue
    overrides[flag.variable] = flag.name === 'root' && value.trim() !== '' ? resolve(cwd, value) : value
    renames.push([flag.variable, `--${flag.name}`])
  }
  if (values['no-dream']) {
    overrides.HYMEM_DREAM = 'off'
    renames.push(['HYMEM_DREAM', '--no-dream'])
  }
  return {
    kind: 'serve',
    env: { ...env, ...overrides },
    nameFlags: (line) => renames.reduce((text, [variable, flag]) => text.replaceAll(variable, flag), line),
  }
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
      root: { type: 'string' },
      workspace: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      'log-level': { type: 'string' },
      'no-dream': { type: 'boolean' },
    },
  })
}

/** `hymem-honcho --help`: the flags, every environment variable with its default, signals and exit codes. */
export function helpText(width = 80): string {
  const flagRows: [string, string][] = [
    ...FLAGS.map((flag): [string, string] => [`--${flag.name} ${flag.value}`, `overrides ${flag.variable}`]),
    ['--no-dream', 'never dream here (HYMEM_DREAM=off): `hymem worker` processes do'],
    ['-h, --help', 'print this help'],
    ['-v, --version', 'print the version'],
  ]
  const envRows = ENV_VARIABLES.map((variable): [string, string] => [
    variable.name,
    `${variable.description}${variable.default === null ? '' : ` (default: ${variable.default})`}`,
  ])
  return [
    'Usage: hymem-honcho [options]',
    '',
    ...wrap(
      'HyMem behind the Honcho v3 protocol: the /v3 routes, MCP (Streamable HTTP) at /mcp, the memory inspector at /inspect and GET /health, on one port. Settings come from HYMEM_* environment variables; a flag overrides its variable.',
      width,
    ),
    '',
    'Options:',
    ...table(flagRows, width),
    '',
    'Environment:',
    ...table(envRows, width),
    '',
    ...wrap(
      'Signals: SIGTERM or SIGINT stops accepting requests (new ones get 503), lets the requests in flight and the running dreams finish, closes the database and exits 0. A second signal exits at once.',
      width,
    ),
    '',
    ...wrap(
      'Exit codes: 0 stopped cleanly, 1 unexpected error or failed shutdown, 2 bad flag, bad setting or busy port.',
      width,
    ),
    '',
  ].join('\n')
}

function table(rows: readonly [string, string][], width: number): string[] {
  const left = Math.max(...rows.map(([name]) => name.length)) + 4
  return rows.flatMap(([name, text]) => {
    const [first = '', ...rest] = wrap(text, Math.max(20, width - left))
    return [`  ${name.padEnd(left - 2)}${first}`, ...rest.map((line) => `${' '.repeat(left)}${line}`)]
  })
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else {
      line = line === '' ? word : `${line} ${word}`
    }
  }
  if (line !== '') lines.push(line)
  return lines
}
