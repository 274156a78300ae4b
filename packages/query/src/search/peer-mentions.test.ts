import { describe, expect, it } from 'vitest'
import { matchPeers, withoutPeerNames } from './peer-mentions'

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

describe('withoutPeerNames', () => {
  const named = (...words: string[]) => new Set(words)

  it('drops the words that named peers, and their possessive, whatever their case', () => {
    expect(withoutPeerNames('Where did Joanna travel to in July 2022?', named('joanna'))).toBe(
      'Where did travel to in July 2022?',
    )
    expect(withoutPeerNames("What is CAROLINE's identity, and Bob’s?", named('caroline', 'bob'))).toBe(
      'What is identity, and ?',
    )
  })

  it('keeps the words a name is part of, and the message when only names are left', () => {
    expect(withoutPeerNames('Did alberta call al?', named('al'))).toBe('Did alberta call ?')
    expect(withoutPeerNames('Joanna?', named('joanna'))).toBe('Joanna?')
    expect(withoutPeerNames('Nothing named here', named())).toBe('Nothing named here')
  })

  it('treats a name as text, not as a pattern', () => {
    expect(withoutPeerNames('ask a.b or axb', named('a.b'))).toBe('ask or axb')
  })

  it('keeps line breaks and the words of other scripts', () => {
    expect(withoutPeerNames('Мария said:\nпривет', named('мария'))).toBe('said:\nпривет')
  })
})
