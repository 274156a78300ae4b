import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { DreamWorkerData } from './worker-protocol'

/**
 * Starts a dream worker thread. From the built package its entry is `dream-worker.js` beside this bundle;
 * from the TypeScript sources (tests, `tsx`) it is `src/dream-worker.ts`, loaded through tsx's module hooks
 * with the workspace's `@hymem/source` condition (hooks registered in the parent do not reach a worker on
 * Node 20, so the thread registers its own before importing the entry).
 */
export function launchDreamWorker(data: DreamWorkerData): Worker {
  const here = import.meta.url
  if (!here.endsWith('.ts')) return new Worker(new URL('./dream-worker.js', here), { workerData: data })
  const entry = new URL('../dream-worker.ts', here).href
  const tsxPackage = createRequire(here).resolve('tsx/package.json')
  const tsxApi = pathToFileURL(join(dirname(tsxPackage), 'dist/esm/api/index.mjs')).href
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}) })`
  return new Worker(bootstrap, { eval: true, workerData: data, execArgv: ['--conditions=@hymem/source'] })
}
