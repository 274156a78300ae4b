import type { Message } from 'hymem'
import { formatTime } from './format'
import { html, type SafeHtml } from './html'
import { markWords } from './mark-words'

/** Source messages: session, speaker, time and text with the matching words marked. */
export function messageList(
  messages: readonly Message[],
  marks: { terms: readonly string[]; phrase?: string | null },
): SafeHtml {
  return html`<ul class="messages">${messages.map(
    (m) => html`<li class="message" id="m${m.id}">
<p class="meta">session <strong>${m.sessionId}</strong> · <strong>${m.peerId}</strong> (${m.role}) · <time datetime="${m.createdAt}">${formatTime(m.createdAt)}</time> · message ${m.id}</p>
<p class="text">${markWords(m.content, marks.terms, marks.phrase)}</p>
</li>`,
  )}</ul>`
}
