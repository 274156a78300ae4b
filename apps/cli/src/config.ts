import { resolve } from 'node:path'
import { type ConfigResult, configFromEnv, type HyMemConfig } from 'hymem'
import { EXIT_USAGE, ExitError } from './exit-error'
import type { CliContext } from './io'
import type { GlobalOptions } from './program'

/** Resolves the configuration: environment variables, with `--root` / `--workspace` taking precedence. */
export function loadConfig(global: GlobalOptions, ctx: CliContext): ConfigResult {
  const env: Record<string, string | undefined> = { ...ctx.env }
  if (global.root !== undefined) env.HYMEM_ROOT = resolve(ctx.cwd, global.root)
  if (global.workspace !== undefined) env.HYMEM_WORKSPACE = global.workspace
  const result = configFromEnv(env)
  // A bad flag value should name the flag the user typed, not the variable it stands in for.
  const renames: [variable: string, flag: string][] = []
  if (global.root !== undefined) renames.push(['HYMEM_ROOT', '--root'])
  if (global.workspace !== undefined) renames.push(['HYMEM_WORKSPACE', '--workspace'])
  const rename = (line: string) =>
    renames.reduce((text, [variable, flag]) => text.replaceAll(variable, flag), line)
  return { ...result, errors: result.errors.map(rename) }
}

/**
 * The configuration for commands that need a working setup: errors stop with exit 2 (one line each, naming
 * the variable), warnings go to stderr as notes unless `quiet`.
 */
export function requireConfig(
  global: GlobalOptions,
  ctx: CliContext,
  options: { quiet?: boolean } = {},
): HyMemConfig {
  const { config, warnings, errors } = loadConfig(global, ctx)
  if (errors.length > 0) {
    const [first, ...rest] = errors
    for (const line of rest) ctx.stderr.write(`error: ${line}\n`)
    throw new ExitError(EXIT_USAGE, `${first} (run "hymem doctor" to see the whole configuration)`)
  }
  if (!options.quiet) for (const line of warnings) ctx.stderr.write(`note: ${line}\n`)
  return config
}
