import type { AugmentedContext, RankedRef } from 'hymem'
import { dateOf } from '../http/params'
import { stateBadge, tripleText } from '../render/edges'
import { entityLabel, formatMs, formatTime } from '../render/format'
import { html, type SafeHtml } from '../render/html'
import { type PageFrame, renderPage, wsUrl } from '../render/layout'
import { describeReason } from '../render/reasons'

export interface AskParams {
  readonly q?: string
  readonly asOf?: string
  readonly peer?: string
}

export interface AskResult {
  readonly context: AugmentedContext
  /** Wall time of the augment call as the server measured it. */
  readonly ms: number
}

interface Item {
  readonly kind: string
  readonly title: SafeHtml | string
  readonly detail: SafeHtml | string | null
  readonly why: readonly string[]
}

/**
 * Resolves each ranked reference to its item (hits by id in order, since a message and a chunk may share
 * one). augment's as-of applies to graph facts; messages written after that day are marked as such.
 */
function items(
  frame: PageFrame,
  ws: string,
  context: AugmentedContext,
  asOf: string | undefined,
): [RankedRef, Item][] {
  const hits = [...context.hits]
  return context.ranked.flatMap((ref): [RankedRef, Item][] => {
    if (ref.kind === 'hit') {
      const at = hits.findIndex((h) => h.id === ref.id)
      const [hit] = at === -1 ? [] : hits.splice(at, 1)
      if (!hit) return []
      const who = hit.peerId === null ? '' : ` · ${hit.peerId}`
      return [
        [
          ref,
          {
            kind: hit.kind,
            title: markedPassage(hit),
            detail: html`session ${hit.sessionId}${who} · ${formatTime(hit.createdAt)}${
              asOf !== undefined && hit.createdAt > asOf
                ? html` <span class="badge state-stale">after the as-of date</span>`
                : null
            }`,
            why: hit.whyRetrieved,
          },
        ],
      ]
    }
    if (ref.kind === 'graph') {
      const fact = context.graphFacts.find((f) => f.id === ref.id)
      if (!fact) return []
      const title = html`<a href="${wsUrl(frame, ws, `fact/${fact.id}`)}">${tripleText(fact)}</a>`
      const detail = html`${stateBadge(fact)} confidence ${fact.confidence.toFixed(2)} · valid from ${formatTime(fact.validFrom)}${fact.validTo ? ` to ${formatTime(fact.validTo)}` : ''}`
      return [[ref, { kind: 'fact', title, detail, why: fact.whyRetrieved }]]
    }
    if (ref.kind === 'episode') {
      const episode = context.episodes.find((e) => e.id === ref.id)
      return episode
        ? [
            [
              ref,
              { kind: 'episode', title: episode.title, detail: episode.summary, why: episode.whyRetrieved },
            ],
          ]
        : []
    }
    if (ref.kind === 'procedure') {
      const procedure = context.procedures.find((p) => p.id === ref.id)
      if (!procedure) return []
      const steps = html`<ol>${procedure.steps.map((s) => html`<li>${s.text}</li>`)}</ol>`
      return [[ref, { kind: 'procedure', title: procedure.name, detail: steps, why: procedure.whyRetrieved }]]
    }
    const note = context.notes.find((n) => n.id === ref.id)
    return note
      ? [[ref, { kind: 'note', title: note.description, detail: note.content, why: note.whyRetrieved }]]
      : []
  })
}

/** A hit's text with the passage that found it (a stretch of a long message) marked. */
function markedPassage(hit: AugmentedContext['hits'][number]): SafeHtml | string {
  const passage = hit.reasons.find((reason) => reason.kind === 'passage')
  if (!passage) return hit.text
  const { text } = hit
  return html`${text.slice(0, passage.start)}<mark class="passage">${text.slice(passage.start, passage.end)}</mark>${text.slice(passage.end)}`
}

function reasons(codes: readonly string[]): SafeHtml {
  if (codes.length === 0) return html`<p class="muted">No reason recorded.</p>`
  return html`<ul class="reasons">${codes.map((code) => {
    const reason = describeReason(code)
    return html`<li><span class="factor factor-${reason.factor}">${reason.factor}</span> ${reason.text} <code>${code}</code></li>`
  })}</ul>`
}

function results(frame: PageFrame, ws: string, params: AskParams, result: AskResult): SafeHtml {
  const { context } = result
  const list = items(frame, ws, context, params.asOf)
  const messagesHref = (ids: readonly number[]) =>
    `${wsUrl(frame, ws, 'messages')}?ids=${ids.slice(0, 200).join(',')}&mark=${encodeURIComponent(params.q ?? '')}`
  return html`<section aria-labelledby="results-heading">
<h2 id="results-heading">${list.length} items</h2>
<p class="summary" role="status">augment took <strong>${formatMs(context.timings.total ?? result.ms)}</strong> (${formatMs(result.ms)} with the page)${
    params.asOf ? html` · as of <time datetime="${params.asOf}">${dateOf(params.asOf)}</time>` : null
  }${
    context.matchedEntities.length > 0
      ? html` · entities in the question: ${context.matchedEntities.map(entityLabel).join(', ')}`
      : null
  }</p>
${
  list.length === 0
    ? html`<p>Nothing was found for this question.</p>`
    : html`<ol class="ranked">${list.map(
        ([ref, item]) => html`<li class="item kind-${item.kind}">
<p class="item-head"><span class="badge">${item.kind}</span> <span class="score">score ${ref.score.toFixed(2)}</span></p>
<p class="item-title">${item.title}</p>
${item.detail ? html`<div class="item-detail">${item.detail}</div>` : null}
<details open><summary>Why it was retrieved</summary>${reasons(item.why)}</details>
${ref.messageIds.length > 0 ? html`<p class="provenance"><a href="${messagesHref(ref.messageIds)}">${ref.messageIds.length} source message${ref.messageIds.length === 1 ? '' : 's'}</a></p>` : null}
</li>`,
      )}</ol>`
}
</section>`
}

/** The Ask view: a question box that runs augment and explains every returned item. */
export function askPage(
  frame: PageFrame,
  ws: string,
  params: AskParams,
  peers: readonly string[],
  result: AskResult | null,
): string {
  return renderPage(frame, {
    title: params.q ? `Ask: ${params.q}` : 'Ask',
    view: 'ask',
    body: html`<h1>Ask</h1>
<form class="ask" method="get" action="${wsUrl(frame, ws, 'ask')}">
<label class="grow">Question<input type="search" name="q" value="${params.q ?? ''}" required placeholder="e.g. where do we deploy the API?" autocomplete="off"></label>
<label>As of<input type="date" name="asOf" value="${dateOf(params.asOf)}"></label>
<label>Peer<select name="peer"><option value="">anyone</option>${peers.map(
      (p) => html`<option value="${p}"${p === params.peer ? html` selected` : null}>${p}</option>`,
    )}</select></label>
<div class="actions"><button type="submit">Ask</button></div>
</form>
${result ? results(frame, ws, params, result) : html`<p class="muted">Ask what an agent would ask: HyMem shows what augment returns, in order, and why.</p>`}`,
  })
}
