import {
  type StandingRule,
  statesStandingRule,
  type TopicMention,
  topicKey,
  topicTerms,
} from '@hymem/core-store'
import { checkAbort, checkpoint, count, type RunContext } from '../run/context'

/** Messages read per page (each page is written in one transaction). */
const PAGE = 200

/**
 * Keeps the topic index: reads each session's new messages in order and records, per author, the terms that
 * come up for the first time in the session, and the user turns stating a standing rule (`store.topics`; the
 * query checks that an assistant was told). A session that lost a message it had read is read again from its
 * start. Counted as `topicMentions` and `standingRules`.
 */
export async function indexTopics(ctx: RunContext): Promise<void> {
  const { store, workspaceId } = ctx
  let added = 0
  let rulesAdded = 0
  for (const session of await store.topics.listBacklog(workspaceId)) {
    const seen = session.restart
      ? new Set<string>()
      : await store.topics.listSessionKeys(workspaceId, session.sessionId)
    let { afterId, messagesRead } = session
    let restart = session.restart
    for (;;) {
      checkAbort(ctx)
      const messages = await store.messages.listAfter(workspaceId, session.sessionId, afterId, PAGE)
      if (messages.length === 0) break
      const mentions: Omit<TopicMention, 'sessionId'>[] = []
      const rules: Omit<StandingRule, 'sessionId'>[] = []
      for (const message of messages) {
        for (const term of topicTerms(message.content)) {
          const key = topicKey(message.peerId, term)
          if (seen.has(key)) continue
          seen.add(key)
          mentions.push({ peerId: message.peerId, term, messageId: message.id, createdAt: message.createdAt })
        }
        if (message.role === 'user' && statesStandingRule(message.content))
          rules.push({ peerId: message.peerId, messageId: message.id, createdAt: message.createdAt })
      }
      afterId = messages[messages.length - 1]?.id ?? afterId
      messagesRead += messages.length
      await store.topics.record(workspaceId, session.sessionId, {
        restart,
        mentions,
        rules,
        lastMessageId: afterId,
        messagesRead,
      })
      restart = false
      added += mentions.length
      rulesAdded += rules.length
      await checkpoint(ctx)
    }
  }
  count(ctx, 'topicMentions', added)
  count(ctx, 'standingRules', rulesAdded)
}
