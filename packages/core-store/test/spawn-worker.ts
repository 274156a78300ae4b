import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href

/** Spawns `test/workers/store-worker.ts` in ONE node process (tsx as a loader, so SIGKILL hits the writer). */
export function spawnStoreWorker(args: readonly string[]): ChildProcess {
  return spawn(process.execPath, ['--import', tsxLoader, join(here, 'workers/store-worker.ts'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

export interface WorkerResult {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

export function waitForExit(child: ChildProcess): Promise<WorkerResult> {
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
}

/** The worker's final JSON summary line. */
export function summaryOf(result: WorkerResult): Record<string, unknown> {
  const line = result.stdout.trim().split('\n').at(-1) ?? ''
  return JSON.parse(line) as Record<string, unknown>
}
