import { describe, expect, it } from 'vitest'
import { matchPeers } from './peer-mentions'

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
