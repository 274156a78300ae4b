import { describe, expect, it } from 'vitest'
import type { ExtractedTriple } from '../extractor/types'
import { readSpeakers } from '../speakers/read-speakers'
import type { SpeakerTurn } from '../speakers/types'
import { attributeFacts } from './attribute'

const TURNS: SpeakerTurn[] = [
  { peerId: 'alice', role: 'user', name: 'Alice', text: 'I prefer Neovim and I use Rust.' },
  { peerId: 'bob', role: 'user', text: 'I prefer VS Code.' },
  { peerId: 'hermes', role: 'assistant', text: 'You should use Emacs; I use Emacs.' },
]
const speakers = readSpeakers({ turns: TURNS, peers: [{ id: 'c-3', name: 'Carol', aliases: ['Caz'] }] })
if (!speakers) throw new Error('speakers expected')

const triple = (subject: string, object: string, evidenceText?: string): ExtractedTriple => ({
  subject,
  predicate: 'uses',
  object,
  polarity: 1,
  ...(evidenceText ? { evidenceText } : {}),
})

describe('attributeFacts', () => {
  it('keeps peer ids, maps names and aliases to ids, and marks peer objects', () => {
    const r = attributeFacts(
      {
        triples: [triple('bob', 'Go'), triple('CAZ', 'Zig'), triple('Alice', 'Carol'), triple('API', 'Go')],
        markers: [],
        entityTypes: [{ entity: 'Carol', type: 'person' }],
      },
      speakers,
    )
    expect(r.triples.map((t) => [t.subject, t.object, t.subjectPeerId, t.objectPeerId])).toEqual([
      ['bob', 'Go', 'bob', undefined],
      ['c-3', 'Zig', 'c-3', undefined],
      ['alice', 'c-3', 'alice', 'c-3'],
      ['API', 'Go', undefined, undefined],
    ])
    expect(r.entityTypes).toEqual([{ entity: 'c-3', type: 'person' }])
  })

  it('gives `user` to the human whose turn holds the evidence, and drops it when that is not one human', () => {
    const r = attributeFacts(
      {
        triples: [
          triple('user', 'Rust', 'I use Rust'),
          triple('user', 'Go'),
          triple('team', 'Neovim', 'I prefer'),
          triple('user', 'VS Code', 'i prefer vs code'),
        ],
        markers: [],
        entityTypes: [],
      },
      speakers,
    )
    expect(r.triples.map((t) => [t.subject, t.object, t.attribution])).toEqual([
      ['alice', 'Rust', 'speaker'],
      ['bob', 'VS Code', 'speaker'],
    ])
    expect(r.dropped).toEqual({ triples: 2, markers: 0 })
  })

  it("drops a human's fact whose evidence is only in an assistant turn", () => {
    const r = attributeFacts(
      {
        triples: [triple('alice', 'Emacs', 'You should use Emacs'), triple('hermes', 'Emacs', 'I use Emacs')],
        markers: [],
        entityTypes: [],
      },
      speakers,
    )
    expect(r.triples.map((t) => [t.subject, t.object])).toEqual([['hermes', 'Emacs']])
  })

  it('gives markers to human peers only: by `peer`, else by the name opening the statement', () => {
    const r = attributeFacts(
      {
        triples: [],
        markers: [
          { kind: 'preference', statement: 'Alice prefers Neovim.', peerId: 'ALICE' },
          { kind: 'preference', statement: 'Bob prefers VS Code.' },
          { kind: 'style', statement: 'User asked for brevity.' },
          { kind: 'preference', statement: 'Hermes prefers Emacs.', peerId: 'hermes' },
        ],
        entityTypes: [],
      },
      speakers,
    )
    expect(r.markers).toEqual([
      { kind: 'preference', statement: 'Alice prefers Neovim.', peerId: 'alice' },
      { kind: 'preference', statement: 'Bob prefers VS Code.', peerId: 'bob' },
    ])
    expect(r.dropped.markers).toBe(2)
  })

  it('with one human author, `user` and unlabelled markers are that human', () => {
    const one = readSpeakers({ turns: [TURNS[0] as SpeakerTurn, TURNS[2] as SpeakerTurn] })
    if (!one) throw new Error('speakers expected')
    const r = attributeFacts(
      {
        triples: [triple('user', 'Rust')],
        markers: [{ kind: 'style', statement: 'User asked: be brief.' }],
        entityTypes: [],
      },
      one,
    )
    expect(r.triples[0]).toMatchObject({ subject: 'alice', subjectPeerId: 'alice', attribution: 'speaker' })
    expect(r.markers).toEqual([{ kind: 'style', statement: 'User asked: be brief.', peerId: 'alice' }])
  })

  it('with a registry and no turns, keeps `user` and `team` and markers as they are', () => {
    const registry = readSpeakers({ peers: [{ id: 'bob', name: 'Bob' }] })
    if (!registry) throw new Error('speakers expected')
    const r = attributeFacts(
      {
        triples: [triple('user', 'Rust'), triple('Bob', 'Go')],
        markers: [{ kind: 'style', statement: 'User asked: be brief.' }],
        entityTypes: [],
      },
      registry,
    )
    expect(r.triples.map((t) => [t.subject, t.subjectPeerId])).toEqual([
      ['user', undefined],
      ['bob', 'bob'],
    ])
    expect(r.markers).toEqual([{ kind: 'style', statement: 'User asked: be brief.' }])
  })
})
