import { spawn } from 'node:child_process'

export interface RunOptions {
  readonly cwd: string
  readonly env?: NodeJS.ProcessEnv
  /** Killed (and reported) after this long. @default 300 000 ms */
  readonly timeoutMs?: number
}

export interface RunResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs a command to completion and resolves with its exit code and output; rejects on a timeout. */
export function run(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk)
    })
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk)
    })
    const timeoutMs = options.timeoutMs ?? 300_000
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(
        new Error(`${describe(command, args)} did not finish within ${timeoutMs / 1000} s\n${tail(stderr)}`),
      )
    }, timeoutMs)
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(new Error(`${describe(command, args)} could not start: ${error.message}`))
    })
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

/** Like {@link run}, but a non-zero exit is an error that shows the command and the end of its output. */
export async function runOk(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<RunResult> {
  const result = await run(command, args, options)
  if (result.code !== 0) {
    throw new Error(
      `${describe(command, args)} exited ${result.code}\n${tail(result.stderr)}${tail(result.stdout)}`.trimEnd(),
    )
  }
  return result
}

export function describe(command: string, args: readonly string[]): string {
  return [command, ...args].join(' ')
}

/** The last lines of some output, indented, for error messages. */
export function tail(text: string, lines = 30): string {
  const kept = text.trimEnd().split('\n').slice(-lines)
  return kept.length === 1 && kept[0] === '' ? '' : `${kept.map((line) => `    ${line}`).join('\n')}\n`
}
