import { Hono } from 'hono'
import type { InspectorDeps } from '../deps'
import { InspectorError } from '../http/errors'
import { intParam, textParam } from '../http/params'
import { tripleText } from '../render/edges'
import { entityLabel } from '../render/format'
import { html } from '../render/html'
import { wsUrl } from '../render/layout'
import type { InspectorEnv } from '../types'
import { confirmPage } from '../views/confirm'
import { signOutRoute } from './auth-routes'

const MAX_REASON = 500

/** The corrections — retract, merge, forget, restore — each a confirmation page (GET) and a guarded POST. */
export function writeRoutes(deps: InspectorDeps): Hono<InspectorEnv> {
  const { memory } = deps.options
  const log = deps.options.log ?? (() => {})
  const app = new Hono<InspectorEnv>()
  app.route('/', signOutRoute(deps))

  const factOf = async (ws: string, idText: string | undefined) => {
    const id = intParam(idText, 'fact id', { min: 1, max: Number.MAX_SAFE_INTEGER, fallback: 0 })
    const fact = await memory.inspect.fact(id, { workspaceId: ws })
    if (!fact) throw new InspectorError(404, `Fact ${id} not found in workspace ${ws}`)
    if (fact.edge.derived)
      throw new InspectorError(400, 'A derived fact cannot be retracted: retract a fact it rests on.')
    return fact
  }

  app.get('/w/:ws/fact/:id/retract', async (c) => {
    const ws = await deps.workspace(c)
    const { edge } = await factOf(ws, c.req.param('id'))
    const back = wsUrl(deps, ws, `fact/${edge.id}`)
    return c.html(
      confirmPage(await deps.frame(c, ws), {
        title: 'Retract this fact?',
        view: 'graph',
        question: html`<p>Retract <strong>${tripleText(edge)}</strong>? augment stops returning it, and it is recorded as extraction feedback so dreaming never extracts it again.</p>`,
        action: `${back}/retract`,
        fields: {},
        confirmLabel: 'Retract',
        cancelHref: back,
        reason: true,
      }),
    )
  })

  app.post('/w/:ws/fact/:id/retract', async (c) => {
    const ws = await deps.workspace(c)
    const { edge } = await factOf(ws, c.req.param('id'))
    const reason = textParam(String((await c.req.parseBody()).reason ?? ''))?.slice(0, MAX_REASON)
    await memory.retract(
      {
        subject: edge.subject,
        predicate: edge.predicate,
        object: edge.object,
        ...(reason ? { reason } : {}),
      },
      { workspaceId: ws },
    )
    log({ kind: 'write', action: 'retract', workspaceId: ws, detail: tripleText(edge) })
    return c.redirect(`${wsUrl(deps, ws, `fact/${edge.id}`)}?done=retracted`, 303)
  })

  const mergeNames = (from: unknown, into: unknown) => {
    const surface = typeof from === 'string' ? textParam(from) : undefined
    const canonical = typeof into === 'string' ? textParam(into) : undefined
    if (surface === undefined || canonical === undefined)
      throw new InspectorError(400, 'Name the entity to merge and the entity to merge it into.')
    return { surface, canonical }
  }

  app.get('/w/:ws/merge', async (c) => {
    const ws = await deps.workspace(c)
    const { surface, canonical } = mergeNames(c.req.query('from'), c.req.query('into'))
    const back = textParam(c.req.query('back'))
    const cancelHref = back && /^\d+$/.test(back) ? wsUrl(deps, ws, `fact/${back}`) : wsUrl(deps, ws, 'graph')
    return c.html(
      confirmPage(await deps.frame(c, ws), {
        title: 'Merge these entities?',
        view: 'graph',
        question: html`<p>Merge <strong>${entityLabel(surface)}</strong> into <strong>${entityLabel(canonical)}</strong>? Every fact, mention, type and alias of ${entityLabel(surface)} moves to ${entityLabel(canonical)}, and ${entityLabel(surface)} becomes an alias of it.</p>`,
        action: wsUrl(deps, ws, 'merge'),
        fields: { from: surface, into: canonical },
        confirmLabel: 'Merge',
        cancelHref,
      }),
    )
  })

  app.post('/w/:ws/merge', async (c) => {
    const ws = await deps.workspace(c)
    const form = await c.req.parseBody()
    const { surface, canonical } = mergeNames(form.from, form.into)
    const result = await memory.alias(surface, canonical, { workspaceId: ws })
    log({
      kind: 'write',
      action: 'merge',
      workspaceId: ws,
      detail: `${result.surface} → ${result.canonical}`,
    })
    return c.redirect(
      `${wsUrl(deps, ws, 'graph')}?entity=${encodeURIComponent(result.canonical)}&done=merged`,
      303,
    )
  })

  app.get('/w/:ws/notes/:id/forget', async (c) => {
    const ws = await deps.workspace(c)
    const id = c.req.param('id')
    const profile = wsUrl(deps, ws, 'profile')
    return c.html(
      confirmPage(await deps.frame(c, ws), {
        title: 'Forget this note?',
        view: 'profile',
        question: html`<p>Forget note <code>${id}</code>? It is archived, not deleted: it stops being returned and can be restored from the notes list.</p>`,
        action: wsUrl(deps, ws, `notes/${encodeURIComponent(id)}/forget`),
        fields: {},
        confirmLabel: 'Forget',
        cancelHref: profile,
      }),
    )
  })

  app.post('/w/:ws/notes/:id/forget', async (c) => {
    const ws = await deps.workspace(c)
    const id = c.req.param('id')
    const result = await memory.notes.archive({ id, apply: true }, { workspaceId: ws })
    if (result.matched === 0) throw new InspectorError(404, `No active note ${id} in workspace ${ws}`)
    log({ kind: 'write', action: 'forget', workspaceId: ws, detail: id })
    return c.redirect(`${wsUrl(deps, ws, 'profile')}?done=forgotten`, 303)
  })

  app.post('/w/:ws/notes/:id/restore', async (c) => {
    const ws = await deps.workspace(c)
    const id = c.req.param('id')
    const note = await memory.notes.restore(id, { workspaceId: ws })
    if (!note) throw new InspectorError(404, `No note ${id} in workspace ${ws}`)
    log({ kind: 'write', action: 'restore', workspaceId: ws, detail: id })
    return c.redirect(`${wsUrl(deps, ws, 'profile')}?done=restored`, 303)
  })
  return app
}
