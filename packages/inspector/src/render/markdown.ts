import { escapeHtml, SafeHtml } from './html'

/** `code` and **bold** inside escaped text; everything else stays literal (links are shown, not followed). */
function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
}

/**
 * Renders the Markdown HyMem writes (USER.md, MEMORY.md): headings, lists, paragraphs, fenced code and
 * inline code/bold. All text is escaped; HTML comments (the managed-section markers) are dropped; headings
 * start at `<h3>` so they sit under the page's own.
 */
export function renderMarkdown(source: string): SafeHtml {
  const out: string[] = []
  let paragraph: string[] = []
  let list: { tag: 'ul' | 'ol'; items: string[] } | null = null
  let code: string[] | null = null
  const flush = () => {
    if (paragraph.length > 0) out.push(`<p>${inline(paragraph.join(' '))}</p>`)
    paragraph = []
    if (list)
      out.push(`<${list.tag}>${list.items.map((i) => `<li>${inline(i)}</li>`).join('')}</${list.tag}>`)
    list = null
  }
  for (const line of source.replace(/<!--[\s\S]*?-->/g, '').split(/\r?\n/)) {
    if (code) {
      if (/^\s*```/.test(line)) {
        out.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`)
        code = null
      } else code.push(line)
      continue
    }
    if (/^\s*```/.test(line)) {
      flush()
      code = []
      continue
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line)
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line)
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line)
    if (heading) {
      flush()
      const level = Math.min(6, heading[1]!.length + 2)
      out.push(`<h${level}>${inline(heading[2]!)}</h${level}>`)
    } else if (bullet || numbered) {
      const tag = bullet ? 'ul' : 'ol'
      if (paragraph.length > 0 || (list && list.tag !== tag)) flush()
      list ??= { tag, items: [] }
      list.items.push((bullet ?? numbered)![1]!)
    } else if (line.trim() === '') flush()
    else if (list) list.items[list.items.length - 1] += ` ${line.trim()}`
    else paragraph.push(line.trim())
  }
  if (code) out.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`)
  flush()
  return new SafeHtml(out.join('\n'))
}
