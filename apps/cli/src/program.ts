import { createRequire } from 'node:module'
import { Command, CommanderError, Option } from 'commander'
import { EXIT_USAGE, ExitError } from './exit-error'
import type { CliContext } from './io'

/** Options every command accepts (before or after the command name). */
export interface GlobalOptions {
  /** Overrides HYMEM_ROOT. */
  readonly root?: string
  /** Overrides HYMEM_WORKSPACE. */
  readonly workspace?: string
}

/** Registers one command on the program; each command file exports one. */
export type CommandRegistrar = (program: Command, ctx: CliContext) => unknown

/** The CLI's version, from its package.json (`src/` and `dist/` sit at the same depth). */
export const CLI_VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string })
  .version

/**
 * Builds the commander program with every command registered. Commander never calls `process.exit`: usage
 * errors surface as `ExitError(2)` from `parseAsync`, help and `--version` as `ExitError(0)`.
 */
export function createProgram(ctx: CliContext, commands: readonly CommandRegistrar[]): Command {
  // Help is wrapped to the context's terminal width (80 when not a terminal), never to the test runner's.
  const output = {
    writeOut: (text: string) => ctx.stdout.write(text),
    writeErr: (text: string) => ctx.stderr.write(text),
    getOutHelpWidth: () => ctx.stdout.columns ?? 80,
    getErrHelpWidth: () => ctx.stderr.columns ?? 80,
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  }
  const program = new Command('hymem')
    .description('Local-first memory for AI agents: log, dream, augment.')
    .version(CLI_VERSION, '-v, --version')
    .addOption(
      new Option('--root <dir>', 'folder of hymem.sqlite, MEMORY.md and USER.md (overrides HYMEM_ROOT)'),
    )
    .addOption(new Option('--workspace <id>', 'workspace to use (overrides HYMEM_WORKSPACE)'))
    .showHelpAfterError(true)
    .configureOutput(output)
    .exitOverride()
  for (const register of commands) register(program, ctx)
  for (const command of program.commands) {
    command.exitOverride().configureOutput(output)
    command.showHelpAfterError(
      `Usage: hymem ${command.name()} ${command.usage()}\n(run "hymem ${command.name()} --help" for the options)`,
    )
  }
  return program
}

/** Reads the global options as seen from inside a subcommand's action. */
export function globalOptions(command: Command): GlobalOptions {
  const all = command.optsWithGlobals<{ root?: string; workspace?: string }>()
  return { root: all.root, workspace: all.workspace }
}

/** Commander's own stops: help and version exit 0, everything else is a usage error (exit 2). */
export function commanderExit(error: CommanderError): ExitError {
  const clean =
    error.code === 'commander.helpDisplayed' ||
    error.code === 'commander.version' ||
    (error.code === 'commander.help' && error.exitCode === 0) // `hymem help <command>`
  // Commander has already printed its message (and the usage hint) to stderr.
  return new ExitError(clean ? 0 : EXIT_USAGE, '', { cause: error })
}

export { CommanderError }
