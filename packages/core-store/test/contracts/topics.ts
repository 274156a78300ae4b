import { describe, expect, it } from 'vitest'
import type { Store } from '../../src/store/types'
import type { BackendUnderTest } from '../backends'
import { expectStoreError, manualClock } from '../store-harness'

/** Indexes every backlog session's messages as dreaming does: each author's new terms (the words here). */
async function indexAll(store: Store, workspaceId: string): Promise<void> {
  for (const session of await store.topics.listBacklog(workspaceId)) {
    const seen = session.restart
      ? new Set<string>()
      : await store.topics.listSessionKeys(workspaceId, session.sessionId)
    const messages = await store.messages.listAfter(workspaceId, session.sessionId, session.afterId, 100)
    const mentions = messages.flatMap((message) =>
      message.content.split(' ').flatMap((term) => {
        const key = `${message.peerId}\n${term}`
        if (seen.has(key)) return []
        seen.add(key)
        return [{ peerId: message.peerId, term, messageId: message.id, createdAt: message.createdAt }]
      }),
    )
    await store.topics.record(workspaceId, session.sessionId, {
      restart: session.restart,
      mentions,
      lastMessageId: messages[messages.length - 1]?.id ?? session.afterId,
      messagesRead: session.messagesRead + messages.length,
    })
  }
}

/** The topic index cases of the store contract (first mentions per session and author), on every backend. */
export function describeTopicsContract(backend: BackendUnderTest) {
  describe('topics repository', () => {
    const stores = backend.use()

    it('lists the sessions with unread messages and records first mentions per session and author', async () => {
      const { clock, advance } = manualClock()
      const store = await stores.open({ clock })
      const [a1, a2] = await store.messages.insertBatch('w', 'mon', [
        { peerId: 'ann', role: 'user', content: 'redis cache' },
        { peerId: 'bot', role: 'assistant', content: 'redis cluster' },
      ])
      advance(60_000)
      await store.messages.insertBatch('w', 'tue', [
        { peerId: 'ann', role: 'user', content: 'cache eviction' },
      ])
      expect(await store.topics.listBacklog('w')).toEqual([
        { sessionId: 'mon', afterId: 0, messagesRead: 0, restart: false },
        { sessionId: 'tue', afterId: 0, messagesRead: 0, restart: false },
      ])
      await indexAll(store, 'w')
      expect(await store.topics.listBacklog('w')).toEqual([])
      expect(await store.topics.listSessionKeys('w', 'mon')).toEqual(
        new Set(['ann\nredis', 'ann\ncache', 'bot\nredis', 'bot\ncluster']),
      )

      advance(60_000)
      const [a3] = await store.messages.insertBatch('w', 'mon', [
        { peerId: 'ann', role: 'user', content: 'redis eviction' },
      ])
      expect(await store.topics.listBacklog('w')).toEqual([
        { sessionId: 'mon', afterId: a2!.id, messagesRead: 2, restart: false },
      ])
      await indexAll(store, 'w')

      const redis = await store.topics.firstMentions('w', ['redis', 'eviction'])
      expect(redis.map((m) => [m.sessionId, m.peerId, m.term, m.messageId])).toEqual([
        ['mon', 'ann', 'redis', a1!.id],
        ['mon', 'bot', 'redis', a2!.id],
        ['tue', 'ann', 'eviction', expect.any(Number)],
        ['mon', 'ann', 'eviction', a3!.id],
      ])
      expect(redis[0]?.createdAt).toBe(a1!.createdAt)
      const annTuesday = await store.topics.firstMentions('w', ['cache', 'eviction'], {
        sessionIds: ['tue'],
        peerId: 'ann',
      })
      expect(annTuesday.map((m) => m.term)).toEqual(['cache', 'eviction'])
      expect(await store.topics.firstMentions('w', ['cache'], { sessionIds: [] })).toEqual([])
      expect(await store.topics.firstMentions('w', [])).toEqual([])
      expect(await store.topics.firstMentions('w', ['redis'], { limit: 1 })).toHaveLength(1)
      expect(await store.topics.firstMentions('other', ['redis'])).toEqual([])

      const counts = await store.topics.sessionCounts('w', ['redis', 'eviction', 'unknown'])
      expect(counts).toEqual({
        terms: new Map([
          ['redis', 1],
          ['eviction', 2],
        ]),
        sessions: 2,
      })
      expect(await store.topics.sessionCounts('w', [])).toEqual({ terms: new Map(), sessions: 2 })
    })

    it('reads a session again from its start when a message it read is forgotten', async () => {
      const store = await stores.open()
      const [first, second] = await store.messages.insertBatch('w', 's', [
        { peerId: 'ann', content: 'kafka topics' },
        { peerId: 'ann', content: 'kafka retention' },
      ])
      await indexAll(store, 'w')
      const purge = await store.purges.request('w', { kind: 'messages', messageIds: [first!.id] })
      await store.purges.removeRows('w', purge.id)
      expect(await store.topics.listBacklog('w')).toEqual([
        { sessionId: 's', afterId: 0, messagesRead: 0, restart: true },
      ])
      await indexAll(store, 'w')
      const kafka = await store.topics.firstMentions('w', ['kafka', 'topics'])
      expect(kafka.map((m) => [m.term, m.messageId])).toEqual([['kafka', second!.id]])
      expect(await store.topics.listBacklog('w')).toEqual([])
    })

    it('keeps the standing rules a page names, newest first, with their messages', async () => {
      const { clock, advance } = manualClock()
      const store = await stores.open({ clock })
      const [typescript] = await store.messages.insertBatch('w', 'mon', [
        { peerId: 'ann', role: 'user', content: 'Always show examples in TypeScript.' },
      ])
      advance(60_000)
      const [tabs, spaces] = await store.messages.insertBatch('w', 'tue', [
        { peerId: 'ann', role: 'user', content: 'I prefer tabs.' },
        { peerId: 'bob', role: 'user', content: 'Never use spaces.' },
      ])
      const rule = (message: typeof typescript) => ({
        messageId: message!.id,
        peerId: message!.peerId,
        createdAt: message!.createdAt,
      })
      const page = (lastMessageId: number, messagesRead: number) => ({
        restart: false,
        mentions: [],
        lastMessageId,
        messagesRead,
      })
      await store.topics.record('w', 'mon', { ...page(typescript!.id, 1), rules: [rule(typescript)] })
      await store.topics.record('w', 'tue', { ...page(spaces!.id, 2), rules: [rule(tabs), rule(spaces)] })
      // Read again (a store dreamed before rules were kept): nothing is duplicated.
      await store.topics.record('w', 'tue', { ...page(spaces!.id, 2), rules: [rule(tabs)] })
      const ids = (rules: { messageId: number }[]) => rules.map((r) => r.messageId)
      expect(ids(await store.topics.standingRules('w'))).toEqual([spaces!.id, tabs!.id, typescript!.id])
      expect(await store.topics.standingRules('w', { peerId: 'ann', limit: 1 })).toEqual([
        { messageId: tabs!.id, sessionId: 'tue', peerId: 'ann', createdAt: tabs!.createdAt },
      ])
      expect(ids(await store.topics.standingRules('w', { sessionIds: ['mon'] }))).toEqual([typescript!.id])
      expect(await store.topics.standingRules('w', { sessionIds: [] })).toEqual([])
      expect(await store.topics.standingRules('other')).toEqual([])
      await expectStoreError(store.topics.standingRules('w', { limit: 0 }), 'INVALID_INPUT')

      const purge = await store.purges.request('w', { kind: 'messages', messageIds: [tabs!.id] })
      await store.purges.removeRows('w', purge.id)
      expect(ids(await store.topics.standingRules('w'))).toEqual([spaces!.id, typescript!.id])
      await store.topics.record('w', 'tue', { ...page(spaces!.id, 1), restart: true, rules: [] })
      expect(ids(await store.topics.standingRules('w'))).toEqual([typescript!.id])
      await store.workspaces.delete('w')
      expect(await store.topics.standingRules('w')).toEqual([])
    })

    it('goes with its workspace, and refuses bad input', async () => {
      const store = await stores.open()
      const [message] = await store.messages.insertBatch('w', 's', [{ peerId: 'ann', content: 'grafana' }])
      await indexAll(store, 'w')
      await expectStoreError(
        store.topics.record('w', 's', {
          restart: false,
          mentions: [{ peerId: 'ann', term: '', messageId: message!.id, createdAt: message!.createdAt }],
          lastMessageId: message!.id,
          messagesRead: 1,
        }),
        'INVALID_INPUT',
      )
      await expectStoreError(store.topics.firstMentions('w', ['grafana'], { limit: 0 }), 'INVALID_INPUT')
      await expectStoreError(store.topics.listBacklog(''), 'INVALID_INPUT')
      expect(await store.topics.firstMentions('w', ['grafana'])).toHaveLength(1)
      await store.workspaces.delete('w')
      expect(await store.topics.firstMentions('w', ['grafana'])).toEqual([])
      expect(await store.topics.sessionCounts('w', ['grafana'])).toEqual({ terms: new Map(), sessions: 0 })
    })
  })
}
