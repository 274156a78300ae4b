#!/usr/bin/env node
import { runCli } from './run'

// Commands that can stop cleanly (dream, reindex, capture, worker) ask for this signal: from then on Ctrl-C or
// SIGTERM stops them at their next checkpoint and a second one exits at once. Every other command keeps
// Node's defaults.
let interrupt: AbortController | undefined
const interruptible = (): AbortSignal => {
  if (!interrupt) {
    const controller = new AbortController()
    interrupt = controller
    const stop = () => {
      process.off('SIGINT', stop).off('SIGTERM', stop)
      controller.abort()
      process.once('SIGINT', () => process.exit(130)).once('SIGTERM', () => process.exit(143))
    }
    process.once('SIGINT', stop).once('SIGTERM', stop)
  }
  return interrupt.signal
}
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
  interruptible,
})
