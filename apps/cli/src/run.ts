import { CommanderError } from 'commander'
import { ALL_COMMANDS } from './commands'
import { EXIT_FAILURE, ExitError } from './exit-error'
import { type CliContext, maskingOutput } from './io'
import { commanderExit, createProgram } from './program'

/**
 * Runs the CLI on `argv` (without the node and script paths) and resolves to the exit code. The only place
 * that catches: `ExitError` and the packages' own error classes print one line; anything else is a bug and
 * prints its stack. Whatever goes to stderr has its URL secrets masked.
 */
export async function runCli(argv: readonly string[], given: CliContext): Promise<number> {
  const ctx: CliContext = { ...given, stderr: maskingOutput(given.stderr) }
  const program = createProgram(ctx, ALL_COMMANDS)
  try {
    await program.parseAsync([...argv], { from: 'user' })
    return 0
  } catch (error) {
    const stop = error instanceof CommanderError ? commanderExit(error) : error
    if (stop instanceof ExitError) {
      if (stop.message) ctx.stderr.write(`error: ${stop.message}\n`)
      return stop.exitCode
    }
    // Loaded only on this path: the packages' error classes pull in their whole modules.
    const { describeExpectedError } = await import('./expected-errors')
    const expected = describeExpectedError(stop)
    if (expected !== null) {
      ctx.stderr.write(`error: ${expected}\n`)
      return EXIT_FAILURE
    }
    ctx.stderr.write(`hymem: unexpected error (this is a bug, please report it)\n${formatStack(stop)}\n`)
    return EXIT_FAILURE
  }
}

function formatStack(error: unknown): string {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error)
}
