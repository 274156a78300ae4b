import type { Note, Page } from 'hymem'
import { formatTime } from '../render/format'
import { html, type SafeHtml } from '../render/html'
import { csrfField, type PageFrame, renderPage, wsUrl } from '../render/layout'
import { renderMarkdown } from '../render/markdown'

function file(name: string, text: string): SafeHtml {
  const body = text.replace(/<!--[\s\S]*?-->/g, '').trim()
  return html`<section class="md-file" aria-label="${name}"><h2>${name}</h2>${
    body === ''
      ? html`<p class="muted">Empty: dreaming fills it from what the conversations show.</p>`
      : renderMarkdown(text)
  }</section>`
}

function noteRow(frame: PageFrame, ws: string, note: Note): SafeHtml {
  const archived = note.archivedAt !== null
  const action = archived
    ? html`<form method="post" action="${wsUrl(frame, ws, `notes/${encodeURIComponent(note.id)}/restore`)}">${csrfField(frame)}<button type="submit">Restore</button></form>`
    : html`<a class="button" href="${wsUrl(frame, ws, `notes/${encodeURIComponent(note.id)}/forget`)}">Forget…</a>`
  return html`<tr class="${archived ? 'archived' : ''}">
<td><strong>${note.description}</strong><div class="note-content">${note.content}</div></td>
<td>${note.importance}</td>
<td><time datetime="${note.updatedAt}">${formatTime(note.updatedAt)}</time></td>
<td>${archived ? html`<span class="badge state-stale">archived ${formatTime(note.archivedAt)}</span>` : html`<span class="badge state-active">active</span>`}</td>
<td>${action}</td>
</tr>`
}

/** Profile and notes: USER.md and MEMORY.md rendered, and every note (archived ones too) with forget/restore. */
export function profilePage(
  frame: PageFrame,
  ws: string,
  profile: { userMd: string; memoryMd: string },
  notes: Page<Note>,
): string {
  return renderPage(frame, {
    title: 'Profile & notes',
    view: 'profile',
    body: html`<h1>Profile &amp; notes</h1>
<div class="two-col">${file('USER.md', profile.userMd)}${file('MEMORY.md', profile.memoryMd)}</div>
<section aria-labelledby="notes-heading">
<h2 id="notes-heading">Notes (${notes.total})</h2>
${
  notes.total === 0
    ? html`<p class="muted">No notes yet: agents save them with remember.</p>`
    : html`<div class="table-scroll"><table class="notes">
<thead><tr><th scope="col">Note</th><th scope="col">Importance</th><th scope="col">Updated</th><th scope="col">State</th><th scope="col">Action</th></tr></thead>
<tbody>${notes.items.map((n) => noteRow(frame, ws, n))}</tbody></table></div>
${notes.pages > 1 ? html`<p class="muted">Showing page ${notes.page} of ${notes.pages}. ${notes.page < notes.pages ? html`<a href="?page=${notes.page + 1}">Next page</a>` : null}</p>` : null}`
}
</section>`,
  })
}
