import { describe, expect, it } from 'vitest'
import { readSpeakers, renderTurns } from './read-speakers'

describe('readSpeakers', () => {
  it('is undefined for plain text', () => {
    expect(readSpeakers({})).toBeUndefined()
  })

  it('lists authors and humans in order of their first turn', () => {
    const s = readSpeakers({
      turns: [
        { peerId: 'bot', role: 'assistant', text: 'hi' },
        { peerId: 'bob', role: 'user', text: 'x' },
        { peerId: 'alice', role: 'user', text: 'y' },
        { peerId: 'bob', role: 'user', text: 'z' },
      ],
    })
    expect(s?.participants).toEqual(['bot', 'bob', 'alice'])
    expect(s?.humans).toEqual(['bob', 'alice'])
  })

  it('names a peer by id, name or alias in any case; a shared or pronoun-like name names nobody', () => {
    const s = readSpeakers({
      peers: [
        { id: 'alice', name: 'Alice', aliases: ['Al', 'Sam'] },
        { id: 'samuel', name: 'Sam' },
        { id: 'team', name: 'You' },
      ],
      turns: [{ peerId: 'x-1', role: 'user', name: 'Dana  Scully', text: 'hi' }],
    })
    expect(['ALICE', ' al ', 'samuel', 'dana scully', 'X-1'].map((n) => s?.peerNamed(n))).toEqual([
      'alice',
      'alice',
      'samuel',
      'x-1',
      'x-1',
    ])
    expect(['Sam', 'you', 'team', 'Bob'].map((n) => s?.peerNamed(n))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ])
    expect([s?.nameOf('x-1'), s?.nameOf('alice'), s?.nameOf('nobody')]).toEqual([
      'Dana  Scully',
      'Alice',
      undefined,
    ])
  })

  it('finds the addressee only between exactly two authors, and only a human', () => {
    const turn = (peerId: string, role: 'user' | 'assistant' = 'user') => ({ peerId, role, text: 'x' })
    expect(readSpeakers({ turns: [turn('a'), turn('b'), turn('a')] })?.addresseeOf('a')).toBe('b')
    expect(readSpeakers({ turns: [turn('a'), turn('b'), turn('c')] })?.addresseeOf('a')).toBeUndefined()
    expect(readSpeakers({ turns: [turn('a'), turn('bot', 'assistant')] })?.addresseeOf('a')).toBeUndefined()
    expect(readSpeakers({ turns: [turn('a')] })?.addresseeOf('a')).toBeUndefined()
  })

  it('renders turns as role-prefixed lines', () => {
    expect(
      renderTurns([
        { role: 'user', text: ' I use Rust. ' },
        { role: 'assistant', text: 'Noted.' },
      ]),
    ).toBe('user: I use Rust.\nassistant: Noted.')
  })
})
