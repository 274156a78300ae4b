import { guardRequests, isClientAbort, RequestGuard, requestBodyLimit } from '@hymem/http-guard'
import { Hono } from 'hono'
import { HonchoHttpError } from './errors'
import { authMiddleware } from './http/auth'
import { errorResponse } from './http/error-status'
import { DEFAULT_LIMITS } from './http/limits'
import { conclusionRoutes } from './routes/conclusions'
import { docsRoutes } from './routes/docs'
import { healthRoutes } from './routes/health'
import { conflictRoutes, HYMEM_ROUTE_PREFIX, hymemRoutes } from './routes/hymem'
import { messageRoutes } from './routes/messages'
import { peerRoutes } from './routes/peers'
import { scopeRoutes } from './routes/scopes'
import { sessionPeerRoutes } from './routes/session-peers'
import { sessionRoutes } from './routes/sessions'
import { workspaceRoutes } from './routes/workspaces'
import { QueueTracker } from './services/queue-tracker'
import type { HonchoAppOptions, HonchoEnv, RouteDeps } from './types'

const UPLOAD_SUFFIX = '/messages/upload'
const JSON_BODIES = { accepts: ['json'] } as const
const UPLOAD_BODIES = { accepts: ['json', 'multipart'] } as const

/** The Honcho app, plus `idle()`: resolves once the dreams started by `schedule_dream` have settled. */
export type HonchoApp = Hono<HonchoEnv> & { readonly idle: () => Promise<void> }

/**
 * Builds the Honcho v3 app over a HyMem instance. It does not listen: serve it with `@hono/node-server`
 * or call `app.request()` in tests. Before closing the memory, await `app.idle()`.
 */
export function createHonchoApp(options: HonchoAppOptions): HonchoApp {
  const limits = Object.freeze({ ...DEFAULT_LIMITS, ...options.limits })
  const log = options.log ?? (() => {})
  const deps: RouteDeps = {
    memory: options.memory,
    limits,
    log,
    backgroundDreaming: options.dreamsElsewhere !== true && (options.backgroundDreaming ?? true),
    dreamsElsewhere: options.dreamsElsewhere === true,
    dreams: new Map(),
    queue: new QueueTracker(),
  }
  const app = new Hono<HonchoEnv>({ strict: false })

  app.onError((error, c) => {
    if (isClientAbort(error, c.req.raw)) {
      log({ kind: 'client-aborted', method: c.req.method, path: c.req.path })
      return c.json({ detail: 'The client closed the request' }, 400)
    }
    const { status, body, known } = errorResponse(error)
    if (!known) log({ kind: 'error', method: c.req.method, path: c.req.path, error })
    return c.json(body, status)
  })
  app.notFound((c) => c.json({ detail: 'Not Found' }, 404))

  app.use('*', async (c, next) => {
    const started = performance.now()
    const served = options.memory.serving()
    try {
      await next()
    } finally {
      served()
    }
    log({
      kind: 'request',
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: performance.now() - started,
    })
  })
  const guard = options.guard ?? new RequestGuard()
  app.use(
    '*',
    guardRequests(
      guard,
      (path) => (path.endsWith(UPLOAD_SUFFIX) ? UPLOAD_BODIES : JSON_BODIES),
      (c, refusal) => c.json({ detail: refusal.reason }, refusal.status),
    ),
  )
  app.route('/health', healthRoutes(options.memory, options.auth))
  app.route('/', docsRoutes({ routes: () => app.routes, extra: options.documentedRoutes ?? {} }))

  const tooLarge = (bytes: number) => (): never => {
    throw new HonchoHttpError('PAYLOAD_TOO_LARGE', `Request body exceeds ${bytes} bytes`)
  }
  const jsonLimit = requestBodyLimit(limits.jsonBodyBytes, tooLarge(limits.jsonBodyBytes))
  const uploadLimit = requestBodyLimit(limits.uploadBodyBytes, tooLarge(limits.uploadBodyBytes))
  app.use('/v3/*', authMiddleware(options.auth))
  app.use('/v3/*', (c, next) =>
    c.req.path.endsWith(UPLOAD_SUFFIX) ? uploadLimit(c, next) : jsonLimit(c, next),
  )

  const workspaces = new Hono<HonchoEnv>()
  workspaces.route('/', workspaceRoutes(deps))
  workspaces.route('/:ws/peers', peerRoutes(deps))
  workspaces.route('/:ws/sessions', sessionRoutes(deps))
  workspaces.route('/:ws/sessions/:s/peers', sessionPeerRoutes(deps))
  workspaces.route('/:ws/sessions/:s/messages', messageRoutes(deps))
  workspaces.route('/:ws/conclusions', conclusionRoutes(deps))
  workspaces.route('/:ws/scopes', scopeRoutes(deps))
  workspaces.route(`/:ws${HYMEM_ROUTE_PREFIX}`, hymemRoutes(deps))
  workspaces.route('/:ws/conflicts', conflictRoutes(deps))
  app.route('/v3/workspaces', workspaces)
  const idle = async () => {
    while (deps.dreams.size > 0) await Promise.allSettled([...deps.dreams.values()])
  }
  return Object.assign(app, { idle })
}
