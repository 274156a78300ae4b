import type { EmbeddingClient } from '@hymem/extraction'
import type { RunContext } from '../run/context'
import { embedUnvectored } from './embed-unvectored'

/** Characters of a message handed to the embedder (the local models read about 256 tokens anyway). */
const MESSAGE_TEXT_CHARS = 2000

/** The text a message is embedded as: its author, then what it says. */
export function messageText(message: { peerId: string; content: string }): string {
  return `${message.peerId}: ${message.content.slice(0, MESSAGE_TEXT_CHARS)}`
}

/**
 * Embeds messages that have no vector yet, oldest first, at most `messageEmbedBudget` per cycle. Returns how
 * many were embedded.
 */
export function embedMessages(ctx: RunContext, client: EmbeddingClient): Promise<number> {
  const { store, workspaceId } = ctx
  return embedUnvectored(ctx, client, {
    index: 'messages',
    budget: ctx.config.messageEmbedBudget,
    page: (afterId, limit) => store.messages.listUnembedded(workspaceId, { afterId, limit }),
    text: (message) => messageText(message),
  })
}
