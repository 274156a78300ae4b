/**
 * `@hymem/cli`: the `hymem` command-line tool. The binary is `dist/bin.js`; this entry exposes the program
 * and each command as a function, so they can be driven in-process (tests, scripts).
 *
 * @example
 * import { runCli } from '@hymem/cli'
 * const code = await runCli(['doctor', '--offline'], {
 *   stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd(),
 * })
 * @module
 */
export type { DoctorOptions } from './commands/doctor'
export { collectDoctorReport, doctor, renderDoctor } from './commands/doctor'
export type { CheckStatus, DoctorCheck, DoctorReport } from './commands/doctor-types'
export { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, ExitError } from './exit-error'
export type { CliContext, CliOutput } from './io'
export type { CommandRegistrar, GlobalOptions } from './program'
export { CLI_VERSION, createProgram } from './program'
export { runCli } from './run'
