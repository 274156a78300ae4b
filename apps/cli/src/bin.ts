#!/usr/bin/env node
import { runCli } from './run'

// Ctrl-C asks long work (dream, reindex) to stop at its next checkpoint; a second Ctrl-C exits at once.
const interrupt = new AbortController()
process.once('SIGINT', () => {
  interrupt.abort()
  process.once('SIGINT', () => process.exit(130))
})
// `hymem export | head` closes the pipe early: that is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
  throw error
})

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
  signal: interrupt.signal,
})
