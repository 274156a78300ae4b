import { describe, expect, it } from 'vitest'
import type { KnownPeer, SpeakerTurn } from '../speakers/types'
import { createRulesExtractor } from './rules-extractor'

const rules = createRulesExtractor()
const PEERS: KnownPeer[] = [
  { id: 'alice', name: 'Alice', aliases: ['Ali'] },
  { id: 'bob', name: 'Bob' },
  { id: 'c-3', name: 'Carol' },
]
const alice = (text: string): SpeakerTurn => ({ peerId: 'alice', role: 'user', text })
const bob = (text: string): SpeakerTurn => ({ peerId: 'bob', role: 'user', text })
const carol = (text: string): SpeakerTurn => ({ peerId: 'c-3', role: 'user', text })
const agent = (text: string): SpeakerTurn => ({ peerId: 'hermes', role: 'assistant', text })

async function facts(turns: SpeakerTurn[], peers: KnownPeer[] = PEERS) {
  const r = await rules.extractFacts({ text: '', turns, peers })
  return r.triples.map((t) => [t.subject, t.predicate, t.object, t.polarity, t.attribution])
}

describe('createRulesExtractor: speaker-labelled turns', () => {
  it('gives each author their own first-person facts and never merges authors into `user`', async () => {
    const r = await rules.extractFacts({
      text: 'ignored when turns are given: I use Cobol.',
      turns: [alice('I prefer Neovim. I use Rust.'), bob('I prefer VS Code, and I use Go.')],
    })
    expect(r.triples.map((t) => [t.subject, t.predicate, t.object, t.subjectPeerId, t.attribution])).toEqual([
      ['alice', 'prefers', 'Neovim', 'alice', 'speaker'],
      ['alice', 'uses', 'Rust', 'alice', 'speaker'],
      ['bob', 'prefers', 'VS Code', 'bob', 'speaker'],
      ['bob', 'uses', 'Go', 'bob', 'speaker'],
    ])
    expect(r.markers).toEqual([
      { kind: 'preference', statement: 'User prefers Neovim.', peerId: 'alice' },
      { kind: 'preference', statement: 'User prefers VS Code.', peerId: 'bob' },
    ])
  })

  it('names the author in marker statements when the author has a name', async () => {
    const r = await rules.extractFacts({
      text: '',
      turns: [alice('Please be concise. I prefer tabs.')],
      peers: PEERS,
    })
    expect(r.markers).toEqual([
      { kind: 'style', statement: 'Alice asked: Be concise.', peerId: 'alice' },
      { kind: 'preference', statement: 'Alice prefers tabs.', peerId: 'alice' },
    ])
  })

  it("reads the speaker's team as the speaker and keeps facts about things as written", async () => {
    expect(await facts([carol('Our team uses Kafka. We deploy the API to Fly.io.')])).toEqual([
      ['c-3', 'uses', 'Kafka', 1, 'speaker-team'],
      ['API', 'deploys_to', 'Fly.io', 1, undefined],
    ])
  })

  it('reads "we both" as every human author of the chunk', async () => {
    expect(await facts([alice('We both use Linux.'), bob('Arch, to be precise.'), agent('Nice.')])).toEqual([
      ['alice', 'uses', 'Linux', 1, 'participants'],
      ['bob', 'uses', 'Linux', 1, 'participants'],
    ])
  })

  it('resolves "you" only to the one other human of a two-person chunk', async () => {
    expect(await facts([alice('You prefer tabs, I prefer spaces.'), bob('Tabs forever.')])).toEqual([
      ['bob', 'prefers', 'tabs', 1, 'addressee'],
      ['alice', 'prefers', 'spaces', 1, 'speaker'],
    ])
    expect(await facts([alice('You use Windows.'), bob('True.'), carol('Sure.')])).toEqual([])
    expect(await facts([alice('You use Windows.'), agent('I do not use anything.')])).toEqual([])
  })

  it('resolves named peers by name, alias or id in any case; other people keep their surface form', async () => {
    expect(
      await facts([
        bob('Ali uses Vim. CAROL prefers Helix.'),
        bob('carol uses Zig. Marco uses Emacs.'),
        alice('Yes.'),
      ]),
    ).toEqual([
      ['alice', 'uses', 'Vim', 1, 'named'],
      ['c-3', 'prefers', 'Helix', 1, 'named'],
      ['c-3', 'uses', 'Zig', 1, 'named'],
      ['Marco', 'uses', 'Emacs', 1, undefined],
    ])
  })

  it('gives reported and quoted statements to the peer who made them', async () => {
    expect(
      await facts([
        alice('Bob says he prefers Go. Carol told me she no longer uses Redis.'),
        alice('Bob said: "I don\'t use Docker anymore. I use Podman."'),
        alice('"We deploy to Render," Carol said.'),
      ]),
    ).toEqual([
      ['bob', 'prefers', 'Go', 1, 'reported'],
      ['c-3', 'uses', 'Redis', -1, 'reported'],
      ['bob', 'uses', 'Docker', -1, 'reported'],
      ['bob', 'uses', 'Podman', 1, 'reported'],
      ['c-3', 'deploys_to', 'Render', 1, 'reported'],
    ])
  })

  it('reads nothing into quotes by unknown people, reported plans or second-hand pronouns', async () => {
    expect(
      await facts([
        alice('Marco said: "I use Emacs."'),
        alice('Bob thinks we should use Kafka. Bob says I use Go. I told Bob he uses Vim.'),
      ]),
    ).toEqual([])
  })

  it('reads a speaker reporting themselves as the speaker', async () => {
    const r = await rules.extractFacts({
      text: '',
      turns: [alice('I told you I avoid ORMs.'), bob('You did.')],
    })
    expect(r.triples.map((t) => [t.subject, t.predicate, t.object, t.attribution])).toEqual([
      ['alice', 'avoids', 'ORMs', 'speaker'],
    ])
    expect(r.markers.map((m) => [m.kind, m.peerId])).toEqual([['rejection', 'alice']])
  })

  it('reads a title before a peer name as that peer, and never makes a peer the object of a fact', async () => {
    expect(await facts([alice('My manager Bob prefers Jira. I work with Carol.')])).toEqual([
      ['bob', 'prefers', 'Jira', 1, 'named'],
    ])
  })

  it('splits "Bob and I" into the two people', async () => {
    expect(await facts([alice('Bob and I both use Vim.')])).toEqual([
      ['alice', 'uses', 'Vim', 1, 'speaker'],
      ['bob', 'uses', 'Vim', 1, 'named'],
    ])
    expect(await facts([alice('Marco and I use Vim.')])).toEqual([])
  })

  it("never turns an agent's words into anyone's facts or markers", async () => {
    const r = await rules.extractFacts({
      text: '',
      turns: [
        agent('I prefer Vim, you use pnpm, and Alice said she prefers Rust. Please be concise.'),
        { peerId: 'sys', role: 'system', text: 'We use Postgres.' },
        { peerId: 'grep', role: 'tool', text: 'I use ripgrep.' },
      ],
      peers: PEERS,
    })
    expect(r).toMatchObject({ triples: [], markers: [], entityTypes: [] })
  })

  it('types named peers and things, never the speaker tokens', async () => {
    const r = await rules.extractFacts({
      text: '',
      turns: [alice('Bob is working on MedFlow. I use Postgres.')],
      peers: PEERS,
    })
    expect(r.entityTypes).toEqual(
      expect.arrayContaining([
        { entity: 'bob', type: 'person' },
        { entity: 'MedFlow', type: 'project' },
      ]),
    )
    expect(r.entityTypes.map((e) => e.entity)).not.toContain('alice')
  })

  it('drops negative examples by peer id', async () => {
    const r = await rules.extractFacts({
      text: '',
      turns: [alice('I use Rust and Zig.')],
      negativeExamples: [{ subject: 'ALICE', predicate: 'uses', object: 'zig' }],
    })
    expect(r.triples.map((t) => t.object)).toEqual(['Rust'])
    expect(r.dropped.triples).toBe(1)
  })

  it('with a registry but no turns, resolves named peers and leaves the speaker as `user`', async () => {
    const r = await rules.extractFacts({ text: 'I use Rust. Bob uses Go. We both use Linux.', peers: PEERS })
    expect(r.triples.map((t) => [t.subject, t.predicate, t.object, t.subjectPeerId])).toEqual([
      ['user', 'uses', 'Rust', undefined],
      ['bob', 'uses', 'Go', 'bob'],
      ['team', 'uses', 'Linux', undefined],
    ])
  })

  it('refuses malformed turns and peers with INVALID_INPUT naming the field', async () => {
    const bad = [
      {
        turns: [{ peerId: '', role: 'user', text: 'x' }],
        message: 'turns[0].peerId must be a non-empty string',
      },
      { turns: [{ peerId: 'a', role: 'human', text: 'x' }], message: 'turns[0].role must be one of' },
      { turns: [alice('x'), { peerId: 'b', role: 'user' }], message: 'turns[1].text must be a string' },
      { turns: 'alice: hi', message: 'turns must be an array' },
      { peers: [{ id: 'b', aliases: 'Bobby' }], message: 'peers[0].aliases must be an array of strings' },
    ]
    for (const { message, ...input } of bad) {
      const error = await rules.extractFacts({ text: '', ...(input as object) }).catch((e: unknown) => e)
      expect(error).toMatchObject({ name: 'ExtractionError', code: 'INVALID_INPUT' })
      expect((error as Error).message).toContain(message)
    }
  })
})
