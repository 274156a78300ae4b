import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { insertEdge, insertMessages, openTestStore, type TestStore, WS } from '../../test/harness'
import { createQueryEngine } from '../engine'

describe('graph facts per peer', () => {
  let t: TestStore
  beforeEach(async () => {
    t = openTestStore()
    await insertMessages(t.store, 's1', [
      { content: 'I prefer Neovim', peerId: 'alice' },
      { content: 'I prefer VS Code', peerId: 'bob' },
    ])
    await insertEdge(t.store, { subject: 'alice', predicate: 'prefers', object: 'neovim' })
    await insertEdge(t.store, { subject: 'bob', predicate: 'prefers', object: 'vs_code' })
    await insertEdge(t.store, { subject: 'user', predicate: 'prefers', object: 'emacs' })
    await insertEdge(t.store, { subject: 'billing', predicate: 'uses', object: 'postgres' })
  })
  afterEach(() => t.close())

  const triples = (facts: readonly { subject: string; object: string; aboutPeerId?: string }[]) =>
    facts.map((f) => `${f.subject}>${f.object}@${f.aboutPeerId ?? 'world'}`).sort()

  it("keeps a peer its own facts and the shared world, never another peer's or an unattributed speaker's", async () => {
    const engine = createQueryEngine({ store: t.store })
    const question = 'which editor does this person prefer, and what does billing use?'
    const alice = await engine.augment(question, { workspaceId: WS, peerId: 'alice' })
    expect(triples(alice.graphFacts)).toEqual(['alice>neovim@alice', 'billing>postgres@world'])
    const bob = await engine.augment(question, { workspaceId: WS, peerId: 'bob' })
    expect(triples(bob.graphFacts)).toEqual(['billing>postgres@world', 'bob>vs_code@bob'])
  })

  it('tags every fact with its peer when no peer is asked about', async () => {
    const engine = createQueryEngine({ store: t.store })
    const all = await engine.augment('which editor is preferred?', { workspaceId: WS })
    expect(triples(all.graphFacts)).toEqual(
      expect.arrayContaining(['alice>neovim@alice', 'bob>vs_code@bob', 'user>emacs@world']),
    )
  })
})
