// The entry of the dream worker thread (see createHyMem's `dreamIn` option); built to dist/dream-worker.js.
import { parentPort, workerData } from 'node:worker_threads'
import { serveDreams } from './dream/worker-body'
import type { DreamWorkerData } from './dream/worker-protocol'

if (!parentPort) throw new Error('dream-worker.js runs as a worker thread started by hymem, not on its own')
serveDreams(parentPort, workerData as DreamWorkerData)
