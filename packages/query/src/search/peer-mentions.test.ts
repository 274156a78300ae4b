import { describe, expect, it } from 'vitest'
import { inFirstPerson, matchPeers } from './peer-mentions'

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)

describe('matchPeers', () => {
  it('finds peers named in the message, case-insensitively and in the possessive', () => {
    const found = matchPeers(['alice', 'bob', 'carol'], words("What is Alice's job, and did BOB agree?"))
    expect([...found.peers]).toEqual(['alice', 'bob'])
    expect([...found.words]).toEqual(['alice', 'bob'])
  })

  it('needs every word of a multi-word peer id, in order and adjacent', () => {
    expect([...matchPeers(['mary_ann', 'ann-lee'], words('Did Mary Ann call? lee ann')).peers]).toEqual([
      'mary_ann',
    ])
    expect([...matchPeers(['ann-lee'], words('ann met lee')).peers]).toEqual([])
  })

  it('does not match a peer id inside a longer word', () => {
    expect([...matchPeers(['al'], words('albert always calls')).peers]).toEqual([])
  })
})

describe('inFirstPerson', () => {
  const named = (...ids: string[]) => new Set(ids)

  it('puts the peers a question names in the first person, whatever their case', () => {
    expect(inFirstPerson('When did Nate win his third tourney?', named('nate'))).toBe(
      'When did I win his third tourney?',
    )
    expect(inFirstPerson("What is CAROLINE's identity, and Bob’s?", named('caroline', 'bob'))).toBe(
      'What is my identity, and my?',
    )
  })

  it('replaces a multi-word peer id once, however its words are separated', () => {
    expect(inFirstPerson("Did Mary Ann call mary-ann's mom?", named('mary_ann'))).toBe('Did I call my mom?')
  })

  it('keeps the words a name is part of, and messages that name no one', () => {
    expect(inFirstPerson('Did alberta call al?', named('al'))).toBe('Did alberta call I?')
    expect(inFirstPerson('Nothing named here', named())).toBe('Nothing named here')
  })

  it('treats a peer id as text, not as a pattern', () => {
    expect(inFirstPerson('ask a.b or axb', named('a.b'))).toBe('ask I or axb')
  })

  it('keeps line breaks and the words of other scripts', () => {
    expect(inFirstPerson('Мария said:\nпривет', named('мария'))).toBe('I said:\nпривет')
  })
})
