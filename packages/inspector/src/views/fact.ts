import type { Edge, FactView } from 'hymem'
import { edgeState, stateBadge, tripleText } from '../render/edges'
import { entityLabel, formatTime, predicateLabel } from '../render/format'
import { html, type SafeHtml } from '../render/html'
import { type PageFrame, renderPage, wsUrl } from '../render/layout'
import { termsOf } from '../render/mark-words'
import { messageList } from '../render/messages'

function chain(frame: PageFrame, ws: string, title: string, edges: readonly Edge[], empty: string): SafeHtml {
  return html`<h3>${title}</h3>${
    edges.length === 0
      ? html`<p class="muted">${empty}</p>`
      : html`<ol class="chain">${edges.map(
          (e) =>
            html`<li><a href="${wsUrl(frame, ws, `fact/${e.id}`)}">${tripleText(e)}</a> ${stateBadge(e)} <span class="muted">valid ${formatTime(e.validFrom)} – ${formatTime(e.validTo)}</span></li>`,
        )}</ol>`
  }`
}

function actions(frame: PageFrame, ws: string, fact: FactView): SafeHtml {
  const { edge } = fact
  const retract = edge.derived
    ? html`<p class="muted">Derived edges are recomputed from the facts they rest on at every dream: retract one of those instead.</p>`
    : edgeState(edge) === 'retracted'
      ? html`<p class="muted">This fact is retracted.</p>`
      : html`<p><a class="button danger" href="${wsUrl(frame, ws, `fact/${edge.id}/retract`)}">Retract this fact…</a></p>`
  return html`<section aria-labelledby="actions-heading" class="actions-box">
<h2 id="actions-heading">Correct it</h2>
${retract}
<form method="get" action="${wsUrl(frame, ws, 'merge')}" class="inline-form">
<label>Merge entity <select name="from"><option value="${edge.subject}">${entityLabel(edge.subject)}</option><option value="${edge.object}">${entityLabel(edge.object)}</option></select></label>
<label>into <input type="text" name="into" required placeholder="the entity it is the same as"></label>
<input type="hidden" name="back" value="${edge.id}">
<button type="submit">Merge…</button>
</form>
</section>`
}

/** The Fact view: one edge, its figures, supersede chain, provenance and the corrections. */
export function factPage(frame: PageFrame, ws: string, fact: FactView): string {
  const { edge } = fact
  const graph = (name: string) => `${wsUrl(frame, ws, 'graph')}?entity=${encodeURIComponent(name)}`
  const terms = termsOf(edge.subject, edge.object)
  return renderPage(frame, {
    title: tripleText(edge),
    view: 'graph',
    body: html`<h1 class="triple"><a href="${graph(edge.subject)}">${entityLabel(edge.subject)}</a> <span class="predicate">${predicateLabel(edge.predicate)}</span> <a href="${graph(edge.object)}">${entityLabel(edge.object)}</a></h1>
<p>${stateBadge(edge)} <span class="muted">fact ${edge.id}</span></p>
<dl class="figures">
<div><dt>Confidence</dt><dd>${edge.confidence.toFixed(2)}</dd></div>
<div><dt>Evidence for / against</dt><dd>${edge.posEvidence} / ${edge.negEvidence}</dd></div>
<div><dt>Subject type</dt><dd>${fact.subjectType ?? 'none recorded'}</dd></div>
<div><dt>Object type</dt><dd>${fact.objectType ?? 'none recorded'}</dd></div>
<div><dt>Valid from</dt><dd>${formatTime(edge.validFrom)}</dd></div>
<div><dt>Valid to</dt><dd>${edge.validTo === null ? 'still valid' : formatTime(edge.validTo)}</dd></div>
<div><dt>First seen</dt><dd>${formatTime(edge.firstSeen)}</dd></div>
<div><dt>Last reinforced</dt><dd>${formatTime(edge.lastReinforced)}</dd></div>
</dl>
<section aria-labelledby="chain-heading">
<h2 id="chain-heading">Supersede chain</h2>
${chain(frame, ws, 'It replaced', fact.replaced, 'Nothing: no older fact was closed by this one.')}
${chain(frame, ws, 'Replaced by', fact.replacedBy, 'Nothing has replaced it.')}
</section>
<section aria-labelledby="provenance-heading">
<h2 id="provenance-heading">Provenance</h2>
${
  fact.evidence.length === 0
    ? html`<p class="muted">No evidence rows${edge.derived ? ': this edge was inferred from other facts.' : '.'}</p>`
    : html`<ol class="evidence">${fact.evidence.map(
        (ev) => html`<li class="${ev.polarity > 0 ? 'supports' : 'contradicts'}">
<p><span class="badge ${ev.polarity > 0 ? 'state-active' : 'state-retracted'}">${ev.polarity > 0 ? 'supports' : 'contradicts'}</span> observed <time datetime="${ev.observedAt}">${formatTime(ev.observedAt)}</time> · ${ev.source}</p>
${ev.text ? html`<blockquote>${ev.text}</blockquote>` : null}
${messageList(ev.messages, { terms, phrase: ev.text })}
${
  ev.chunk
    ? html`<details><summary>Chunk ${ev.chunk.id} · session ${ev.chunk.sessionId} · ${ev.chunk.salienceReason}</summary><pre class="chunk">${ev.chunk.text}</pre></details>`
    : null
}
</li>`,
      )}</ol>`
}
</section>
${actions(frame, ws, fact)}`,
  })
}
