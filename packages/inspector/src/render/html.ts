/** Markup that is already safe to send: built by {@link html} or from trusted constants. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value
  }
}

/** What a template accepts: text (escaped), numbers, safe markup, nothing, or lists of these. */
export type HtmlChild = SafeHtml | string | number | boolean | null | undefined | readonly HtmlChild[]

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Escapes text for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)
}

function append(out: string[], child: HtmlChild): void {
  if (child === null || child === undefined || typeof child === 'boolean') return
  if (child instanceof SafeHtml) out.push(child.value)
  else if (Array.isArray(child)) for (const item of child) append(out, item)
  else out.push(escapeHtml(String(child)))
}

/**
 * Tagged template that escapes every interpolated value unless it is {@link SafeHtml}.
 *
 * @example
 * html`<p>${userText}</p>` // userText is escaped
 */
export function html(strings: TemplateStringsArray, ...values: HtmlChild[]): SafeHtml {
  const out: string[] = []
  strings.forEach((part, i) => {
    out.push(part)
    if (i < values.length) append(out, values[i])
  })
  return new SafeHtml(out.join(''))
}

/** Trusted markup (constants written in this package). */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup)
}
