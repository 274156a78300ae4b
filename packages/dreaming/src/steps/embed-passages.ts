import type { EmbeddingClient } from '@hymem/extraction'
import type { RunContext } from '../run/context'
import { messageText } from './embed-messages'
import { embedUnvectored } from './embed-unvectored'

/**
 * Embeds passages (of long messages) that have no vector yet, oldest first, at most `passageEmbedBudget` per
 * cycle, each as its author and its text, like a message. Returns how many were embedded.
 */
export function embedPassages(ctx: RunContext, client: EmbeddingClient): Promise<number> {
  const { store, workspaceId } = ctx
  return embedUnvectored(ctx, client, {
    index: 'passages',
    budget: ctx.config.passageEmbedBudget,
    page: (afterId, limit) => store.passages.listUnembedded(workspaceId, { afterId, limit }),
    text: (passage) => messageText({ peerId: passage.peerId, content: passage.text }),
  })
}
