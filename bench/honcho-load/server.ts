/**
 * The server side of the load bench, in its own process so the load clients never share its event loop:
 * `startServer` from a JSON spec in argv[2], the URL printed on stdout, closed on SIGTERM or when stdin
 * ends (the bench died).
 *
 *   node --conditions=@hymem/source --import tsx bench/honcho-load/server.ts '<spec json>'
 */
import { writeFileSync } from 'node:fs'
import { startServer } from '@hymem/honcho-server'
import { configFromEnv } from 'hymem'
import { LONG_TASK_MS, watchLongTasks } from './long-tasks'

export interface LoadServerSpec {
  readonly root: string
  readonly dreamIn: 'worker' | 'process'
  readonly backgroundDreaming: boolean
  readonly cooldownSeconds: number
  readonly embeddings: 'local' | 'fake' | 'none'
  /** Write the event loop's stalls over LONG_TASK_MS, with the requests in flight, to this JSON file. */
  readonly longTasks?: string
}

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadServerSpec
const { config, errors } = configFromEnv({
  HOME: spec.root,
  HYMEM_ROOT: spec.root,
  HYMEM_HONCHO_PORT: '1',
  HYMEM_EMBEDDING_PROVIDER: spec.embeddings,
  HYMEM_DREAM_COOLDOWN_SECONDS: String(spec.cooldownSeconds),
  HYMEM_LOG_LEVEL: 'error',
})
if (errors.length > 0) throw new Error(errors.join('\n'))
const server = await startServer(
  { ...config, honcho: { ...config.honcho, port: 0 } },
  {
    dreamIn: spec.dreamIn,
    backgroundDreaming: spec.backgroundDreaming,
    log: (event) => {
      if (event.level === 'error') process.stderr.write(`${JSON.stringify(event)}\n`)
    },
  },
)
const longTasks = spec.longTasks ? watchLongTasks(LONG_TASK_MS) : null
process.stdout.write(`${server.url}\n`)
process.once('SIGTERM', () => {
  const written = longTasks
    ? longTasks().then((report) => writeFileSync(spec.longTasks!, JSON.stringify(report)))
    : Promise.resolve()
  written
    .then(() => server.close())
    .then(
      () => process.exit(0),
      () => process.exit(1),
    )
})
