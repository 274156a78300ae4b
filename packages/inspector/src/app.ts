import { guardRequests, isClientAbort, RequestGuard, requestBodyLimit } from '@hymem/http-guard'
import { type Context, Hono } from 'hono'
import { getCookie } from 'hono/cookie'
import { AssetStore, DEFAULT_ASSETS_DIR } from './assets'
import type { InspectorDeps } from './deps'
import { expectedFailure, InspectorError } from './http/errors'
import { authRoutes, requireCredentials, requireSafeWrite } from './routes/auth-routes'
import { readRoutes } from './routes/read-routes'
import { writeRoutes } from './routes/write-routes'
import { Guard, SESSION_COOKIE } from './security/guard'
import { securityHeaders } from './security/headers'
import type { InspectorEnv, InspectorOptions, Principal } from './types'
import { errorPage } from './views/simple'

const FORM_BODIES = { accepts: ['form', 'multipart'] } as const
/** Sign-in and every write form: a token, a CSRF token and a short reason fit many times over. */
const FORM_BODY_BYTES = 64 * 1024

function normalizeBase(base: string): string {
  const trimmed = base.replace(/\/+$/, '')
  if (trimmed !== '' && !trimmed.startsWith('/')) throw new Error(`basePath must start with /: ${base}`)
  return trimmed
}

/**
 * The memory inspector as a Hono app mounted at `basePath` (default `/inspect`): server-rendered views of
 * the graph, facts, questions, history, profile and health, reading through the facade. It does not listen.
 *
 * @example
 * const inspector = createInspectorApp({ memory, auth: { tokens: { secret: '*' } } })
 * app.route('/', inspector) // serves /inspect/…
 */
export function createInspectorApp(options: InspectorOptions): Hono<InspectorEnv> {
  const base = normalizeBase(options.basePath ?? '/inspect')
  const guard = new Guard({
    ...(options.auth ? { auth: options.auth } : {}),
    ...(options.secret ? { secret: options.secret } : {}),
  })
  const assets = new AssetStore(options.assetsDir ?? DEFAULT_ASSETS_DIR)
  const { memory } = options

  /**
   * The workspaces this caller may open: every existing one its token allows, plus the memory's default one
   * (`listed` leaves the default out when it is empty and others exist).
   */
  const workspacesOf = async (c: Context<InspectorEnv>) => {
    const { allowed } = c.get('principal')
    const may = (ws: string) => allowed === '*' || allowed.has(ws)
    const known = (await memory.inspect.workspaces()).filter(may)
    const reachable =
      known.includes(memory.workspaceId) || !may(memory.workspaceId) ? known : [memory.workspaceId, ...known]
    return { reachable, listed: known.length > 0 ? known : reachable }
  }
  const deps: InspectorDeps = {
    options,
    base,
    guard,
    assets,
    async frame(c, workspace, notice = null) {
      const principal = c.get('principal') as Principal | undefined
      return {
        base,
        assets,
        csrf: c.get('csrf') ?? '',
        signedIn: principal?.via === 'cookie' && getCookie(c, SESSION_COOKIE) !== undefined,
        workspace,
        workspaces: principal ? (await workspacesOf(c)).listed : [],
        notice,
      }
    },
    async workspace(c) {
      const ws = c.req.param('ws') ?? ''
      if (!(await workspacesOf(c)).reachable.includes(ws))
        throw new InspectorError(404, `Workspace ${ws} not found`)
      return ws
    },
  }

  const app = new Hono<InspectorEnv>({ strict: false }).basePath(base)
  app.use('*', securityHeaders())
  app.use('*', guardRequests(options.guard ?? new RequestGuard(), FORM_BODIES))
  app.use(
    '*',
    requestBodyLimit(FORM_BODY_BYTES, () => {
      throw new InspectorError(413, `Inspector forms are limited to ${FORM_BODY_BYTES / 1024} KiB.`)
    }),
  )
  app.use('*', async (c, next) => {
    const { pathname, search } = new URL(c.req.url)
    const trailing = pathname.length > 1 && pathname.endsWith('/')
    if (trailing && (c.req.method === 'GET' || c.req.method === 'HEAD'))
      return c.redirect(`${pathname.replace(/\/+$/, '') || '/'}${search}`, 301)
    return next()
  })
  app.onError(async (error, c) => {
    if (isClientAbort(error, c.req.raw)) return c.text('The client closed the request.', 400)
    const failure = expectedFailure(error)
    if (!failure) options.log?.({ kind: 'error', method: c.req.method, path: c.req.path, error })
    const status = failure?.status ?? 500
    const message = failure?.message ?? 'The inspector failed to answer; the server log has the details.'
    if (!c.get('principal')) return c.text(message, status)
    return c.html(errorPage(await deps.frame(c, null), status, message), status)
  })

  app.get('/assets/:name', (c) => {
    const asset = assets.get(c.req.param('name'))
    if (!asset) return c.text('Not found', 404)
    const versioned = c.req.query('v') === asset.version
    return c.body(asset.body, 200, {
      'Content-Type': asset.type,
      'Cache-Control': versioned ? 'public, max-age=31536000, immutable' : 'no-cache',
      ETag: `"${asset.version}"`,
    })
  })
  app.route('/', authRoutes(deps))
  app.use('*', requireCredentials(deps))
  app.use('*', requireSafeWrite(deps))
  app.route('/', readRoutes(deps))
  app.route('/', writeRoutes(deps))
  app.all('*', () => {
    throw new InspectorError(404, 'There is no such page in the inspector.')
  })
  return app
}
