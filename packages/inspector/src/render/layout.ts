import type { AssetStore } from '../assets'
import { type HtmlChild, html } from './html'

/**
 * Cytoscape adds an inline `<style>` (which the CSP blocks) unless an element with this id exists; the
 * inspector's stylesheet carries the id and the one rule cytoscape wanted.
 */
const CYTOSCAPE_STYLESHEET_ID = '__________cytoscape_stylesheet'

/** The views a workspace has, in navigation order. */
export const VIEWS = [
  ['graph', 'Graph'],
  ['ask', 'Ask'],
  ['timeline', 'Timeline'],
  ['profile', 'Profile & notes'],
  ['health', 'Dreams & search'],
] as const

export type ViewName = (typeof VIEWS)[number][0]

/** What every page needs to draw its frame. */
export interface PageFrame {
  readonly base: string
  readonly assets: AssetStore
  /** The CSRF token for this caller's forms. */
  readonly csrf: string
  /** Whether the caller signed in with a cookie (then a sign-out button is shown). */
  readonly signedIn: boolean
  /** The workspace being viewed, and the other workspaces the caller may switch to. */
  readonly workspace: string | null
  readonly workspaces: readonly string[]
  /** A one-line outcome of the last write (shown above the page). */
  readonly notice?: string | null
}

export interface PageContent {
  readonly title: string
  readonly view?: ViewName
  readonly body: HtmlChild
  /** Load the graph bundle (cytoscape). */
  readonly graph?: boolean
}

/** The inspector's start page. */
export function homeUrl(frame: Pick<PageFrame, 'base'>): string {
  return frame.base === '' ? '/' : frame.base
}

/** URL of a workspace view. */
export function wsUrl(frame: Pick<PageFrame, 'base'>, workspace: string, path: string): string {
  return `${frame.base}/w/${encodeURIComponent(workspace)}/${path}`
}

/** A hidden CSRF field for a POST form. */
export function csrfField(frame: PageFrame) {
  return html`<input type="hidden" name="_csrf" value="${frame.csrf}">`
}

function nav(frame: PageFrame, view: ViewName | undefined) {
  if (frame.workspace === null) return null
  const ws = frame.workspace
  return html`<nav class="views" aria-label="Views">
<ul>${VIEWS.map(
    ([name, label]) =>
      html`<li><a href="${wsUrl(frame, ws, name)}"${name === view ? html` aria-current="page"` : null}>${label}</a></li>`,
  )}</ul>
</nav>`
}

function workspaceSwitch(frame: PageFrame) {
  if (frame.workspace === null) return null
  if (frame.workspaces.length <= 1)
    return html`<span class="workspace">workspace <strong>${frame.workspace}</strong></span>`
  return html`<a class="workspace" href="${homeUrl(frame)}">workspace <strong>${frame.workspace}</strong> (switch)</a>`
}

/** The whole HTML document: header with views, the page body, and the external scripts (no inline code). */
export function renderPage(frame: PageFrame, content: PageContent): string {
  const asset = (name: string) => `${frame.base}/assets/${frame.assets.versioned(name)}`
  return `<!doctype html>${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${content.title} · HyMem inspector</title>
<link rel="icon" href="${asset('favicon.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${asset('inspector.css')}" id="${CYTOSCAPE_STYLESHEET_ID}">
<script src="${asset('page.js')}" defer></script>
${content.graph ? html`<script src="${asset('graph.js')}" defer></script>` : null}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<a class="brand" href="${homeUrl(frame)}">HyMem inspector</a>
${workspaceSwitch(frame)}
${
  frame.signedIn
    ? html`<form method="post" action="${frame.base}/sign-out" class="sign-out">${csrfField(frame)}<button type="submit">Sign out</button></form>`
    : null
}
${nav(frame, content.view)}
</header>
<main id="main" tabindex="-1">
${frame.notice ? html`<p class="notice" role="status">${frame.notice}</p>` : null}
${content.body}
</main>
</body>
</html>`}`
}
