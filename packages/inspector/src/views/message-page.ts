import type { Message } from 'hymem'
import { html } from '../render/html'
import { type PageFrame, renderPage } from '../render/layout'
import { termsOf } from '../render/mark-words'
import { messageList } from '../render/messages'

/** Provenance messages by id, with the words of `mark` highlighted. */
export function messagesPage(
  frame: PageFrame,
  messages: readonly Message[],
  mark: string | undefined,
): string {
  return renderPage(frame, {
    title: 'Source messages',
    body: html`<h1>Source messages</h1>
${
  messages.length === 0
    ? html`<p class="muted">None of these messages exist in this workspace.</p>`
    : messageList(messages, { terms: termsOf(mark ?? '') })
}`,
  })
}
