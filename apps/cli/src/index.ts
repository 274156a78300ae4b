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
export type { AugmentCommandOptions } from './commands/augment'
export { augmentCommand } from './commands/augment'
export type { CaptureCommandOptions, CaptureResult } from './commands/capture'
export { captureCommand } from './commands/capture'
export type { RawEntry } from './commands/capture-entries'
export { captureEntries } from './commands/capture-entries'
export type { CaptureLine } from './commands/capture-parse'
export { checkCaptureEntry } from './commands/capture-parse'
export type { DemoOptions, DemoResult } from './commands/demo'
export { demoCommand } from './commands/demo'
export type { DoctorOptions } from './commands/doctor'
export { collectDoctorReport, doctor, renderDoctor } from './commands/doctor'
export type { CheckStatus, DoctorCheck, DoctorReport } from './commands/doctor-types'
export type { DreamCommandOptions } from './commands/dream'
export { dreamCommand } from './commands/dream'
export { mcpCommand } from './commands/mcp'
export type { ReindexCommandOptions } from './commands/reindex'
export { reindexCommand } from './commands/reindex'
export type { StatsCommandOptions } from './commands/stats'
export { statsCommand } from './commands/stats'
export type { ExportCommandOptions, ImportCommandOptions } from './commands/transfer'
export { exportCommand, importCommand } from './commands/transfer'
export { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, ExitError } from './exit-error'
export type { CliContext, CliOutput } from './io'
export type { CommandRegistrar, GlobalOptions } from './program'
export { CLI_VERSION, createProgram } from './program'
export { runCli } from './run'
