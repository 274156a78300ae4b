import { html, type SafeHtml } from '../render/html'
import { csrfField, type PageFrame, renderPage, type ViewName } from '../render/layout'

export interface Confirmation {
  readonly title: string
  readonly view: ViewName
  /** What will happen, in words. */
  readonly question: SafeHtml
  /** Where the POST goes, and its fields besides the CSRF token. */
  readonly action: string
  readonly fields: Readonly<Record<string, string>>
  readonly confirmLabel: string
  readonly cancelHref: string
  /** An optional free-text reason field. */
  readonly reason?: boolean
}

/** A confirmation step before a write: a POST form guarded by the caller's CSRF token. */
export function confirmPage(frame: PageFrame, confirm: Confirmation): string {
  return renderPage(frame, {
    title: confirm.title,
    view: confirm.view,
    body: html`<h1>${confirm.title}</h1>
<div class="confirm">
${confirm.question}
<form method="post" action="${confirm.action}">
${csrfField(frame)}
${Object.entries(confirm.fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
${confirm.reason ? html`<label>Reason (optional)<input type="text" name="reason" maxlength="500" placeholder="why it is wrong"></label>` : null}
<div class="actions"><button type="submit" class="danger" autofocus>${confirm.confirmLabel}</button> <a href="${confirm.cancelHref}">Cancel</a></div>
</form>
</div>`,
  })
}
