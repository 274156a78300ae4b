#!/usr/bin/env node
import { constants } from 'node:os'
import { configFromEnv, maskSecrets } from 'hymem'
import { helpText, parseCommandLine, SERVER_VERSION } from './command-line'
import { facadeLog, httpLog } from './server-log'
import { type RunningServer, ServerConfigError, startServer } from './start-server'

const EXIT_USAGE = 2
const EXPECTED_ERRORS = new Set(['StoreError', 'HyMemError', 'ExtractionError'])
// Errors, log lines and notes can quote the configured URLs: none of them prints a password.
const stderr = (line: string) => process.stderr.write(`${maskSecrets(line)}\n`)

async function main(): Promise<number> {
  const command = parseCommandLine(process.argv.slice(2), process.env, process.cwd())
  switch (command.kind) {
    case 'help':
      process.stdout.write(helpText(process.stdout.columns ?? 80))
      return 0
    case 'version':
      process.stdout.write(`${SERVER_VERSION}\n`)
      return 0
    case 'usage-error':
      stderr(`hymem-honcho: ${command.message} (run "hymem-honcho --help" for the settings)`)
      return EXIT_USAGE
  }
  const { config, warnings, errors } = configFromEnv(command.env)
  for (const warning of warnings) stderr(`hymem-honcho: note: ${command.nameFlags(warning)}`)
  if (errors.length > 0) {
    for (const error of errors) stderr(`hymem-honcho: ${command.nameFlags(error)}`)
    return EXIT_USAGE
  }
  let server: RunningServer
  try {
    server = await startServer(config, {
      log: facadeLog(config.logLevel, stderr),
      httpLog: httpLog(config.logLevel, stderr),
    })
  } catch (error) {
    if (error instanceof ServerConfigError || (error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      stderr(`hymem-honcho: ${(error as Error).message}`)
      return EXIT_USAGE
    }
    // The packages' own errors (an unreachable database, refused credentials, a missing pgvector) say what
    // to fix in one line; anything else is a bug and keeps its stack.
    if (error instanceof Error && EXPECTED_ERRORS.has(error.name)) {
      stderr(`hymem-honcho: cannot start: ${error.message}`)
      return 1
    }
    throw error
  }
  process.stdout.write(`${server.startupLine}\n`)
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  const exitNow = (again: NodeJS.Signals) => {
    stderr(`hymem-honcho: ${again} again, exiting without waiting`)
    process.exit(128 + constants.signals[again])
  }
  process.once('SIGINT', exitNow)
  process.once('SIGTERM', exitNow)
  stderr(`hymem-honcho: ${signal}, finishing the requests in flight and the running dreams…`)
  try {
    await server.close()
  } catch (error) {
    stderr(`hymem-honcho: shutdown failed: ${error instanceof Error ? error.message : String(error)}`)
    return 1
  }
  stderr('hymem-honcho: stopped')
  return 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    stderr(`hymem-honcho: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    process.exit(1)
  },
)
