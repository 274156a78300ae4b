import { describe, expect, it } from 'vitest'
import { fullTextIndexText } from './index-text'
import { queryWords } from './query-words'

const words = (text: string) => [...queryWords(text)].map((w) => (w.prefix ? `${w.text}*` : w.text))

describe('fullTextIndexText', () => {
  it('leaves ASCII text as it is', () => {
    const text = 'Deploy the staging server, then run `pnpm test`.'
    expect(fullTextIndexText(text)).toBe(text)
  })

  it('makes every character of an unspaced script a word, and wide punctuation a space', () => {
    expect(fullTextIndexText('我们用PostgreSQL，Redis')).toBe(' 我  们  用 PostgreSQL Redis')
    expect(fullTextIndexText('東京へ')).toBe(' 東  京  へ ')
  })

  it('drops Arabic vowel signs and the marks of Thai', () => {
    expect(fullTextIndexText('كِتاب')).toBe('كتاب')
    expect(fullTextIndexText('ไม่')).toBe(' ไ  ม ')
  })
})

describe('queryWords', () => {
  it('splits spaced scripts like FTS5 and keeps English words as written', () => {
    expect(words('Which database, Postgres?')).toEqual(['Which', 'database', 'Postgres'])
  })

  it('reads Han and Kana runs as overlapping character pairs, mixed Latin words as words', () => {
    expect(words('后端服务')).toEqual(['后 端', '端 服', '服 务'])
    expect(words('我们用PostgreSQL')).toEqual(['我 们', '们 用', 'PostgreSQL'])
    expect(words('云')).toEqual(['云'])
  })

  it('drops a Southeast Asian mark outside its script as the index does (found by the property test)', () => {
    expect(fullTextIndexText('ꀀ\u17b4ꀀ')).toBe('ꀀꀀ')
    expect(words('ꀀ\u17b4ꀀ')).toEqual(['ꀀꀀ'])
  })

  it('reads Thai in dictionary words, each a phrase of its letters', () => {
    expect(words('ภาษาไทย')).toEqual(['ภ า ษ า', 'ไ ท ย'])
  })

  it('cuts Korean particles and Russian endings off and searches the stem as a prefix', () => {
    expect(words('클러스터에서')).toEqual(['클러스터*'])
    expect(words('базой данных')).toEqual(['баз*', 'данн*'])
  })

  it('keeps Devanagari vowel signs inside the word', () => {
    expect(words('किताबें')).toEqual(['किताब*'])
  })
})
