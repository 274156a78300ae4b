import type { Edge } from 'hymem'
import { entityLabel, predicateLabel } from './format'
import { html, type SafeHtml } from './html'

/** What an edge is now: active, stale, superseded or retracted. */
export function edgeState(edge: {
  readonly status: string
  readonly validTo: string | null
}): 'active' | 'stale' | 'superseded' | 'retracted' {
  if (edge.status === 'retracted') return 'retracted'
  if (edge.validTo !== null) return 'superseded'
  return edge.status === 'stale' ? 'stale' : 'active'
}

/** `subject — predicate → object`. */
export function tripleText(edge: Pick<Edge, 'subject' | 'predicate' | 'object'>): string {
  return `${entityLabel(edge.subject)} — ${predicateLabel(edge.predicate)} → ${entityLabel(edge.object)}`
}

/** A state badge (with "derived" when inferred). */
export function stateBadge(edge: {
  readonly status: string
  readonly validTo: string | null
  readonly derived: boolean
}): SafeHtml {
  const state = edgeState(edge)
  return html`<span class="badge state-${state}">${state}</span>${edge.derived ? html` <span class="badge derived">derived</span>` : null}`
}
