import { Hono } from 'hono'
import type { InspectorDeps } from '../deps'
import { InspectorError } from '../http/errors'
import { asOfParam, idListParam, intParam, textParam } from '../http/params'
import { wsUrl } from '../render/layout'
import type { InspectorEnv } from '../types'
import { askPage } from '../views/ask'
import { factPage } from '../views/fact'
import { graphPage } from '../views/graph'
import { graphSearch, parseGraphParams, toGraphData, toGraphQuery, typeColors } from '../views/graph-query'
import { healthPage } from '../views/health'
import { messagesPage } from '../views/message-page'
import { profilePage } from '../views/profile'
import { workspacesPage } from '../views/simple'
import { daySpan, timelinePage } from '../views/timeline'

/** Outcomes of writes, by the `done` code their redirect carries. */
const NOTICES: Record<string, string> = {
  retracted: 'Retracted: augment no longer returns it, and extraction will not bring it back.',
  merged: 'Merged: the entity’s facts, mentions and types now belong to the other one.',
  forgotten: 'Forgotten: the note is archived and no longer returned. Restore it below.',
  restored: 'Restored: the note is active again.',
}

const MAX_MESSAGES = 200
const DATE = /^\d{4}-\d{2}-\d{2}$/

/** The read-only views. */
export function readRoutes(deps: InspectorDeps): Hono<InspectorEnv> {
  const { memory } = deps.options
  const app = new Hono<InspectorEnv>()
  const notice = (done: string | undefined) => (done === undefined ? null : (NOTICES[done] ?? null))

  app.get('/', async (c) => {
    const frame = await deps.frame(c, null)
    if (frame.workspaces.length === 1) return c.redirect(wsUrl(deps, frame.workspaces[0]!, 'graph'), 303)
    return c.html(workspacesPage(frame, frame.workspaces))
  })
  app.get('/w/:ws', async (c) => c.redirect(wsUrl(deps, await deps.workspace(c), 'graph'), 303))

  app.get('/w/:ws/graph', async (c) => {
    const ws = await deps.workspace(c)
    const params = parseGraphParams(c.req.query())
    const [view, filters] = await Promise.all([
      memory.inspect.graph(toGraphQuery(ws, params)),
      memory.inspect.filters({ workspaceId: ws }),
    ])
    const frame = await deps.frame(c, ws, notice(c.req.query('done')))
    return c.html(graphPage(frame, ws, params, view, filters, textParam(c.req.query('focus')) ?? null))
  })

  app.get('/w/:ws/graph.json', async (c) => {
    const ws = await deps.workspace(c)
    const params = parseGraphParams(c.req.query())
    const view = await memory.inspect.graph(toGraphQuery(ws, params))
    const fact = (id: number) => wsUrl(deps, ws, `fact/${id}`)
    const page = `${wsUrl(deps, ws, 'graph')}${graphSearch(params)}`
    return c.json({
      data: toGraphData(view, typeColors(view), { fact, page, focus: null }),
      total: view.total,
      hidden: view.hidden,
      asOf: view.asOf,
    })
  })

  app.get('/w/:ws/fact/:id', async (c) => {
    const ws = await deps.workspace(c)
    const id = intParam(c.req.param('id'), 'fact id', { min: 1, max: Number.MAX_SAFE_INTEGER, fallback: 0 })
    const fact = await memory.inspect.fact(id, { workspaceId: ws })
    if (!fact) throw new InspectorError(404, `Fact ${id} not found in workspace ${ws}`)
    return c.html(factPage(await deps.frame(c, ws, notice(c.req.query('done'))), ws, fact))
  })

  app.get('/w/:ws/ask', async (c) => {
    const ws = await deps.workspace(c)
    const q = textParam(c.req.query('q'))
    const asOf = asOfParam(c.req.query('asOf'))
    const peer = textParam(c.req.query('peer'))
    const params = { ...(q ? { q } : {}), ...(asOf ? { asOf } : {}), ...(peer ? { peer } : {}) }
    const filters = await memory.inspect.filters({ workspaceId: ws })
    let result = null
    if (q !== undefined) {
      const started = performance.now()
      const context = await memory.augment(q, {
        workspaceId: ws,
        ...(asOf ? { asOf } : {}),
        ...(peer ? { peerId: peer } : {}),
      })
      result = { context, ms: performance.now() - started }
    }
    return c.html(askPage(await deps.frame(c, ws), ws, params, filters.peers, result))
  })

  app.get('/w/:ws/messages', async (c) => {
    const ws = await deps.workspace(c)
    const ids = idListParam(c.req.query('ids'), 'ids', MAX_MESSAGES)
    const messages = await memory.inspect.messages(ids, { workspaceId: ws })
    return c.html(messagesPage(await deps.frame(c, ws), messages, textParam(c.req.query('mark'))))
  })

  app.get('/w/:ws/timeline', async (c) => {
    const ws = await deps.workspace(c)
    const timeline = await memory.inspect.timeline({ workspaceId: ws })
    const today = new Date().toISOString().slice(0, 10)
    const first = timeline.days[0]?.day ?? today
    const last = timeline.days.at(-1)?.day ?? today
    const at = textParam(c.req.query('at')) ?? last
    if (!DATE.test(at)) throw new InspectorError(400, 'at must be a date such as 2026-05-01')
    const span = [first, last, at].sort()
    const days = daySpan(span[0]!, span[2]!)
    const view = await memory.inspect.graph({ workspaceId: ws, asOf: asOfParam(at, 'at')!, limit: 200 })
    return c.html(timelinePage(await deps.frame(c, ws), ws, timeline, at, days, view))
  })

  app.get('/w/:ws/profile', async (c) => {
    const ws = await deps.workspace(c)
    const page = intParam(c.req.query('page'), 'page', { min: 1, max: 1_000_000, fallback: 1 })
    const [profile, notes] = await Promise.all([
      memory.profile({ workspaceId: ws }),
      memory.inspect.notes({ workspaceId: ws, includeArchived: true, page }),
    ])
    return c.html(profilePage(await deps.frame(c, ws, notice(c.req.query('done'))), ws, profile, notes))
  })

  app.get('/w/:ws/health', async (c) => {
    const ws = await deps.workspace(c)
    return c.html(healthPage(await deps.frame(c, ws), await memory.inspect.health({ workspaceId: ws })))
  })
  return app
}
