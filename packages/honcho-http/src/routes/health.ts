import { Hono } from 'hono'
import { authMiddleware, mayUse } from '../http/auth'
import type { HonchoAuthOptions, HonchoEnv, HonchoMemory } from '../types'

/**
 * `GET /health`: `{ status: 'ok' }` for load balancers. With `?verbose` it adds this thread's event-loop
 * delay (p50/p99/max over the last 10–20 s) and the dream runner's state (worker thread or in-process,
 * crashes, the cycles running); with auth configured, `verbose` needs a token and lists only the running
 * cycles of the token's workspaces.
 */
export function healthRoutes(memory: HonchoMemory, auth: HonchoAuthOptions | undefined): Hono<HonchoEnv> {
  const app = new Hono<HonchoEnv>()
  const authenticate = authMiddleware(auth)
  app.get('/', async (c) => {
    if (c.req.query('verbose') === undefined) return c.json({ status: 'ok' })
    await authenticate(c, async () => {})
    const { eventLoopDelay, dreams } = memory.runtime()
    return c.json({
      status: 'ok',
      eventLoopDelay,
      dreams: { ...dreams, running: dreams.running.filter((run) => mayUse(c, run.workspaceId)) },
    })
  })
  return app
}
