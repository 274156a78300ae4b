#!/usr/bin/env node
import { runCli } from './run'

// Commands that can stop cleanly (dream, reindex) ask for this signal: from then on Ctrl-C stops them at their
// next checkpoint and a second Ctrl-C exits at once. Every other command keeps Node's default Ctrl-C.
let interrupt: AbortController | undefined
const interruptible = (): AbortSignal => {
  if (!interrupt) {
    const controller = new AbortController()
    interrupt = controller
    process.once('SIGINT', () => {
      controller.abort()
      process.once('SIGINT', () => process.exit(130))
    })
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
