import type { Honcho, Peer } from '@honcho-ai/sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LiveServer, startLiveServer, waitForQueue } from './live'

/**
 * Issue 19 through the official SDK: three human peers and an agent. Session s1 (alice, bob, the agent):
 * one multi-author chunk where alice and bob state different preferences, a shared-world fact and the agent's
 * own preference. Session s2 (carol and the agent, neither alice nor bob): carol reports what bob prefers.
 * alice and carol observe others in their sessions; bob is observed as usual.
 */
let live: LiveServer
let honcho: Honcho
let alice: Peer
let bob: Peer
let carol: Peer
let agent: Peer

beforeAll(async () => {
  live = await startLiveServer({ backgroundDreaming: true })
  honcho = live.client('peers')
  alice = await honcho.peer('alice', { metadata: { name: 'Alice' } })
  bob = await honcho.peer('bob', { metadata: { name: 'Bob' } })
  carol = await honcho.peer('carol', { metadata: { name: 'Carol' } })
  agent = await honcho.peer('hermes')
  const s1 = await honcho.session('s1')
  await s1.addPeers([[alice, { observeOthers: true }], bob, agent])
  await s1.addMessages([
    alice.message('I prefer Neovim for editing. I use Rust for the command line tools.'),
    bob.message('I prefer VS Code for editing. I use Go for the backend.'),
    alice.message('The billing service depends on Redis for caching.'),
    agent.message('I prefer Emacs for editing, and I use Lisp every day.'),
  ])
  const s2 = await honcho.session('s2')
  await s2.addPeers([[carol, { observeOthers: true }], agent])
  await s2.addMessages([
    carol.message('Bob says he prefers Zig for the new parser.'),
    carol.message('I prefer Helix for editing, it starts fast.'),
  ])
  await waitForQueue(honcho)
})
afterAll(async () => {
  await live.stop()
})

/** The lines of a representation before its shared-world section, and the section's lines. */
function split(representation: string): { own: string; world: string } {
  const at = representation.indexOf('## Shared World')
  return at < 0
    ? { own: representation, world: '' }
    : { own: representation.slice(0, at), world: representation.slice(at) }
}

describe('SDK contract: every peer is its own subject', () => {
  it('gives each human a representation of their own facts, with the same shared world apart', async () => {
    const a = split(await alice.representation())
    const b = split(await bob.representation())
    expect(a.own).toContain('alice prefers neovim')
    expect(a.own).toContain('alice uses rust')
    expect(b.own).toContain('bob prefers vs_code')
    expect(b.own).toContain('bob uses go')
    for (const other of ['bob', 'vs_code', ' go', 'emacs', 'lisp', 'user '])
      expect(a.own).not.toContain(other)
    for (const other of ['alice', 'neovim', 'rust', 'emacs', 'lisp', 'user '])
      expect(b.own).not.toContain(other)
    expect(a.world).toContain('billing_service depends on redis')
    expect(b.world).toContain('billing_service depends on redis')
    expect(a.world).toBe(b.world)
  })

  it('attributes a reported statement to the peer it reports, and the reporter keeps only their own', async () => {
    const b = split(await bob.representation())
    expect(b.own).toContain('bob prefers zig')
    const c = split(await carol.representation())
    expect(c.own).toContain('carol prefers helix')
    expect(c.own).not.toContain('zig')
  })

  it('never turns an agent statement into a human preference', async () => {
    const people = [alice, bob, carol]
    for (const peer of people) {
      const texts = [await peer.representation(), ...((await peer.getCard()) ?? [])].join('\n').toLowerCase()
      expect(texts).not.toContain('emacs')
      expect(texts).not.toContain('lisp')
    }
    const conclusions = await honcho.conclusions.list()
    expect(conclusions.items.map((c) => c.content).join('\n')).not.toMatch(/emacs|lisp/i)
  })

  it('gives disjoint peer cards where the peers differ', async () => {
    const aliceCard = (await alice.getCard()) ?? []
    const bobCard = (await bob.getCard()) ?? []
    expect(aliceCard.join('\n')).toMatch(/neovim/i)
    expect(bobCard.join('\n')).toMatch(/vs code/i)
    expect(aliceCard.join('\n')).not.toMatch(/vs code|bob/i)
    expect(bobCard.join('\n')).not.toMatch(/neovim|alice/i)
    expect(aliceCard.filter((line) => bobCard.includes(line))).toEqual([])
  })

  it('answers the same question differently for each peer', async () => {
    const question = 'Which editor does this person prefer?'
    const forAlice = (await alice.chat(question)) ?? ''
    const forBob = (await bob.chat(question)) ?? ''
    expect(forAlice).toMatch(/neovim/i)
    expect(forAlice).not.toMatch(/vs_code|vs code|emacs|helix/i)
    expect(forBob).toMatch(/vs_code/i)
    expect(forBob).not.toMatch(/neovim|emacs|helix/i)
  })

  it("shows an observer only what it could have seen: alice's bob is s1's bob, carol's bob is s2's", async () => {
    const aliceOfBob = await alice.representation({ target: bob })
    expect(aliceOfBob).toContain('bob prefers vs_code')
    expect(aliceOfBob).not.toContain('zig')
    const carolOfBob = await carol.representation({ target: bob })
    expect(carolOfBob).toContain('bob prefers zig')
    expect(carolOfBob).not.toContain('vs_code')
    // bob does not observe others: he has no view of alice, nor her card.
    expect(await bob.representation({ target: alice })).toBe('')
    expect(await bob.getCard(alice)).toBeNull()
    expect((await alice.getCard(bob))?.join('\n')).toMatch(/vs code/i)
    // Chat about another peer reads the same perspective.
    const question = 'Which editor does Bob prefer?'
    const aliceAsks = (await alice.chat(question, { target: bob })) ?? ''
    expect(aliceAsks).toContain('bob prefers vs_code')
    expect(aliceAsks).not.toContain('zig')
    const carolAsks = (await carol.chat(question, { target: bob })) ?? ''
    expect(carolAsks).toContain('bob prefers zig')
    expect(carolAsks).not.toContain('vs_code')
    expect(await bob.chat('Which editor does Alice prefer?', { target: alice })).toBeNull()
  })

  it('keeps a peer who turned observe_me off out of every view of the session', async () => {
    const s3 = await honcho.session('s3')
    const dave = await honcho.peer('dave')
    await s3.addPeers([
      [dave, { observeMe: false }],
      [alice, { observeOthers: true }],
    ])
    await s3.addMessages([dave.message('I prefer Kakoune for editing, always.')])
    await honcho.scheduleDream({ observer: 'dave' })
    await waitForQueue(honcho)
    // The fact is known (dreaming read it), and shown to nobody.
    const edges = await live.coreStore.edges.listAll('peers')
    expect(edges.map((e) => `${e.subject} ${e.predicate} ${e.object}`)).toContain('dave prefers kakoune')
    expect(await dave.representation()).not.toContain('kakoune')
    expect(await alice.representation({ target: dave })).not.toContain('kakoune')
  })

  it('gives the session context of each peer its own representation and card', async () => {
    const s1 = await honcho.session('s1')
    const forAlice = await s1.context({ tokens: 4000, peerTarget: alice })
    const forBob = await s1.context({ tokens: 4000, peerTarget: bob })
    expect(forAlice.peerRepresentation).toContain('alice prefers neovim')
    expect(forAlice.peerRepresentation).not.toContain('vs_code')
    expect(forBob.peerRepresentation).toContain('bob prefers vs_code')
    expect(forBob.peerRepresentation).not.toContain('neovim')
    expect((forAlice.peerCard ?? []).join('\n')).not.toMatch(/vs code/i)
  })
})

describe('SDK contract: two human peers', () => {
  it('resolves "you" to the other human and "we both" to both', async () => {
    const h = live.client('pair')
    const ann = await h.peer('ann')
    const ben = await h.peer('ben')
    const session = await h.session('p1')
    await session.addMessages([
      ann.message('You prefer tabs for indentation. I prefer spaces for indentation.'),
      ben.message('We both use Linux at work.'),
    ])
    await waitForQueue(h)
    const annRep = await ann.representation()
    const benRep = await ben.representation()
    expect(annRep).toContain('ann uses linux')
    expect(benRep).toContain('ben uses linux')
    expect(annRep).toContain('ann prefers spaces')
    expect(benRep).toContain('ben prefers tabs')
    expect(annRep).not.toContain('tabs')
    expect(benRep).not.toContain('spaces')
  })
})
