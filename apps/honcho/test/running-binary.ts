import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterEach } from 'vitest'

const BIN = fileURLToPath(new URL('../src/bin.ts', import.meta.url))

/** A `hymem-honcho` process started from source that printed its start-up line. */
export interface RunningBinary {
  readonly child: ChildProcessWithoutNullStreams
  readonly startupLine: string
  /** The URL the start-up line says it listens on. */
  readonly url: string
  readonly stderr: () => string
  readonly exit: Promise<number | null>
}

const children: ChildProcessWithoutNullStreams[] = []

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})

/** Spawns `hymem-honcho` from source (killed after the test if still running). */
export function spawnBinary(
  env: Record<string, string>,
  args: string[] = [],
): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@hymem/source', BIN, ...args], {
    env: { ...process.env, ...env },
  })
  children.push(child)
  return child
}

/** Starts the binary and resolves once it has printed its start-up line; rejects if it exits first. */
export async function startBinary(env: Record<string, string>, args: string[] = []): Promise<RunningBinary> {
  const child = spawnBinary(env, args)
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk)
  })
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const startupLine = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk)
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!)
    })
    void exit.then((code) => reject(new Error(`hymem-honcho exited ${code}: ${stderr}`)))
  })
  const url = /listening on (\S+)/.exec(startupLine)![1]!
  return { child, startupLine, url, stderr: () => stderr, exit }
}
