#!/usr/bin/env node
import { configFromEnv, filterLog, type HyMemLogEvent } from 'hymem'
import { ServerConfigError, startServer } from './start-server'

function describe(event: HyMemLogEvent): string {
  if (event.kind === 'notice') return event.message
  const { kind, level, ...rest } = event
  return `${kind} ${JSON.stringify(rest)}`
}

async function main(): Promise<number> {
  const { config, warnings, errors } = configFromEnv(process.env)
  for (const warning of warnings) process.stderr.write(`hymem-honcho: warning: ${warning}\n`)
  if (errors.length > 0) {
    for (const error of errors) process.stderr.write(`hymem-honcho: ${error}\n`)
    return 2
  }
  const log = filterLog(config.logLevel, (event) =>
    process.stderr.write(`[hymem] ${event.level} ${describe(event)}\n`),
  )
  let server: Awaited<ReturnType<typeof startServer>>
  try {
    server = await startServer(config, {
      log,
      httpLog: (event) => {
        if (event.kind === 'error' || event.kind === 'dream-failed') {
          const error =
            event.error instanceof Error ? (event.error.stack ?? event.error.message) : String(event.error)
          process.stderr.write(
            `[hymem-honcho] ${event.kind} ${'path' in event ? event.path : event.workspaceId}: ${error}\n`,
          )
        }
      },
    })
  } catch (error) {
    if (error instanceof ServerConfigError || (error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      process.stderr.write(`hymem-honcho: ${(error as Error).message}\n`)
      return 2
    }
    throw error
  }
  process.stdout.write(`${server.startupLine}\n`)
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.stderr.write(`hymem-honcho: ${signal}, finishing requests in flight…\n`)
      server.close().then(resolve, (error: unknown) => {
        process.stderr.write(`hymem-honcho: shutdown failed: ${String(error)}\n`)
        resolve()
      })
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  return 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `hymem-honcho: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    )
    process.exit(1)
  },
)
