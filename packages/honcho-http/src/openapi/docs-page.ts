import { createHash } from 'node:crypto'

type Json = Record<string, unknown>

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem 1.5rem;color:#1d232a}
h1{margin-bottom:0}h2{border-bottom:1px solid #d6dbe0;margin-top:2rem;text-transform:capitalize}
.op{border:1px solid #d6dbe0;border-radius:6px;margin:.5rem 0;padding:.4rem .8rem}
.m{display:inline-block;min-width:4.2rem;font:600 12px monospace;text-align:center;border-radius:4px;
padding:2px 4px;margin-right:.5rem;color:#fff;background:#5b6470}
.get{background:#2f7d32}.post{background:#1565c0}.put{background:#8d5b00}.delete{background:#b3261e}
code,pre{font:13px ui-monospace,monospace}pre{background:#f4f6f8;padding:.5rem;overflow:auto;max-height:24rem}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #d6dbe0;padding:2px 6px;text-align:left}
summary{cursor:pointer}
`

/** The page's Content-Security-Policy: no script, no asset from anywhere, only this page's own style. */
export const DOCS_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

const inlineCode = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>')

function parameterTable(parameters: readonly Json[]): string {
  if (parameters.length === 0) return ''
  const rows = parameters.map((p) => {
    const schema = (p.schema ?? {}) as Json
    const type = typeof schema.type === 'string' ? schema.type : 'value'
    return `<tr><td><code>${escapeHtml(String(p.name))}</code></td><td>${escapeHtml(String(p.in))}</td><td>${escapeHtml(type)}</td><td>${p.required ? 'yes' : ''}</td></tr>`
  })
  return `<table><tr><th>parameter</th><th>in</th><th>type</th><th>required</th></tr>${rows.join('')}</table>`
}

function operationHtml(path: string, method: string, op: Json): string {
  const body = (op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined
  const bodyHtml = body
    ? Object.entries(body)
        .map(
          ([type, media]) =>
            `<details><summary>request body (${escapeHtml(type)})</summary><pre>${escapeHtml(JSON.stringify(media.schema, null, 2))}</pre></details>`,
        )
        .join('')
    : ''
  const statuses = Object.keys((op.responses ?? {}) as Json).join(', ')
  return `<div class="op" id="${escapeHtml(String(op.operationId))}"><span class="m ${method}">${method.toUpperCase()}</span><code>${escapeHtml(path)}</code>
<div>${inlineCode(String(op.summary ?? ''))} <small>→ ${escapeHtml(statuses)}</small></div>
${parameterTable((op.parameters ?? []) as Json[])}${bodyHtml}</div>`
}

/** Renders the OpenAPI document as one static HTML page grouped by tag (no script: nothing to load). */
export function renderDocsPage(document: Json): string {
  const info = document.info as { title: string; version: string; description?: string }
  const byTag = new Map<string, string[]>()
  for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = String((op.tags as string[] | undefined)?.[0] ?? 'other')
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(path, method, op)])
    }
  }
  const sections = [...byTag].map(
    ([tag, ops]) => `<h2 id="${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${ops.join('\n')}`,
  )
  const nav = [...byTag.keys()]
    .map((tag) => `<a href="#${escapeHtml(tag)}">${escapeHtml(tag)}</a>`)
    .join(' · ')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(info.title)} — API reference</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(info.title)}</h1><p>Version ${escapeHtml(info.version)}. ${inlineCode(info.description ?? '')}
The machine-readable document is <a href="openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
<nav>${nav}</nav>
${sections.join('\n')}
</body></html>`
}
