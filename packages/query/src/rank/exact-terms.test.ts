import { describe, expect, it } from 'vitest'
import type { RetrievalReason } from '../reasons'
import { identifiersOf, leadWithExactTerms, MAX_EXACT_TERM_TURNS, MAX_EXACT_TERMS } from './exact-terms'

describe('identifiersOf', () => {
  it.each([
    ['How did we fix ERR_OSSL_EVP_UNSUPPORTED?', ['ERR_OSSL_EVP_UNSUPPORTED']],
    ['Mongo says E11000 on insert', ['E11000']],
    ['Which breaking changes came with v2.3.1 of the SDK?', ['v2.3.1', 'SDK']],
    ['Where is config.yaml read, and is useEffect still called twice?', ['config.yaml', 'useEffect']],
    ['Does the CORS preflight fail on sha256 hashes?', ['CORS', 'sha256']],
  ])('finds the identifiers of %j', (message, expected) => {
    expect(identifiersOf(message)).toEqual(expected)
  })

  it.each([
    'When did Joanna travel to Woodhaven in July 2022?',
    'I met my teammates on the 15th at 9am, e.g. for the 4GB upgrade',
    'What did I say about the follow-up in mid-2022?',
    'How many times did I mention it?',
    'List the order in which I brought these up. Mention ONLY and ONLY ten items.',
  ])('finds none in plain chat: %j', (message) => {
    expect(identifiersOf(message)).toEqual([])
  })
})

describe('identifiersOf on a pasted stack trace', () => {
  it('keeps the first identifiers only', () => {
    const trace = Array.from({ length: 200 }, (_, i) => `at handler_${i} (src/file${i}.ts:${i})`).join('\n')
    const found = identifiersOf(trace)
    expect(found).toHaveLength(MAX_EXACT_TERMS)
    expect(found[0]).toBe('handler_0')
  })
})

describe('leadWithExactTerms', () => {
  const texts = new Map([
    [1, 'the build failed after the node upgrade, some openssl error'],
    [2, 'a certificate error broke the deploy after upgrading node'],
    [3, 'Fixed ERR_OSSL_EVP_UNSUPPORTED with --openssl-legacy-provider'],
    [4, 'unrelated: lunch at noon'],
  ])
  const candidates = (ids: number[]) => ids.map((id) => ({ id, reasons: [] as RetrievalReason[] }))

  it('puts the turns holding a rare identifier of the message first, marked exact_term', () => {
    const led = leadWithExactTerms(
      'how did we fix ERR_OSSL_EVP_UNSUPPORTED?',
      candidates([1, 2, 3, 4]),
      (id) => texts.get(id),
    )
    expect(led.map((c) => c.id)).toEqual([3, 1, 2, 4])
    expect(led[0]?.reasons).toEqual([{ kind: 'exact_term', term: 'ERR_OSSL_EVP_UNSUPPORTED' }])
    expect(led[1]?.reasons).toEqual([])
  })

  it('keeps the order for plain words, and for an identifier too common to single anything out', () => {
    const order = [1, 2, 3, 4]
    expect(
      leadWithExactTerms('how did we fix the openssl error?', candidates(order), (id) => texts.get(id)).map(
        (c) => c.id,
      ),
    ).toEqual(order)
    const many = Array.from({ length: MAX_EXACT_TERM_TURNS + 1 }, (_, i) => i + 10)
    const led = leadWithExactTerms('is CI green?', candidates([1, ...many]), (id) =>
      id >= 10 ? 'CI failed' : 'ok',
    )
    expect(led.map((c) => c.id)).toEqual([1, ...many])
  })
})
