import { describe, expect, it } from 'vitest'
import { ngrams, words } from './ngrams'

describe('words', () => {
  it('keeps technical names whole and drops punctuation', () => {
    expect(words('Does Node.js beat C++ or C#? (yes!) atta_van', 20)).toEqual([
      'Does',
      'Node.js',
      'beat',
      'C++',
      'or',
      'C#',
      'yes',
      'atta_van',
    ])
  })
  it('reads non-Latin scripts and stops after maxWords', () => {
    expect(words('東京 データ 🙂 Привет мир', 3)).toEqual(['東京', 'データ', 'Привет'])
  })
})

describe('ngrams', () => {
  it('emits 1..3-word grams, longest first per position, skipping lone stop words', () => {
    expect(ngrams(['Atta', 'van', 'Westreenen', 'the'], 3, new Set(['the']))).toEqual([
      'Atta van Westreenen',
      'Atta van',
      'Atta',
      'van Westreenen the',
      'van Westreenen',
      'van',
      'Westreenen the',
      'Westreenen',
    ])
  })
  it('de-duplicates case-insensitively', () => {
    expect(ngrams(['Redis', 'redis'], 1, new Set())).toEqual(['Redis'])
  })
})
