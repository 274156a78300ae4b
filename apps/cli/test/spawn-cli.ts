import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const CLI_DIR = join(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * Starts the real `hymem` entry point in a child process. It runs `src/bin.ts` through tsx with the
 * `@hymem/source` condition, so the e2e tests never depend on a (possibly stale) `dist/` build: the same
 * argv, env, stdio and exit-code path as the built binary, whose bundle is only `tsup` of this file.
 */
export function spawnCli(
  args: readonly string[],
  env: Record<string, string>,
): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--conditions=@hymem/source', '--import', 'tsx', 'src/bin.ts', ...args], {
    cwd: CLI_DIR,
    env: { PATH: process.env.PATH ?? '', ...env },
  })
}

/** Runs the CLI to completion, feeding `input` to stdin. */
export async function runCliProcess(
  args: readonly string[],
  options: { env: Record<string, string>; input?: string },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCli(args, options.env)
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
  })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  child.stdin.end(options.input ?? '')
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (exitCode) => resolve(exitCode))
  })
  return { code, stdout, stderr }
}
