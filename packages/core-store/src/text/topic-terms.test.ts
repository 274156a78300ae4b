import { describe, expect, it } from 'vitest'
import { topicTerms } from './topic-terms'

describe('topicTerms', () => {
  it('stems English words and leaves function words, numbers and single letters out', () => {
    expect(
      topicTerms('We are deploying the services we deployed to Fly.io in 2024: a cost-saving move'),
    ).toEqual(['deploi', 'servic', 'fly', 'io', 'cost', 'save', 'move'])
  })

  it('keys words of unspaced scripts by the pairs and dictionary words the index searches', () => {
    expect(topicTerms('我们的后端')).toEqual(['我们', '们的', '的后', '后端'])
    const thai = topicTerms('ระบบของเราใช้ฐานข้อมูลโพสต์เกรส')
    expect(topicTerms('ฐานข้อมูล').every((term) => thai.includes(term))).toBe(true)
  })

  it('keys inflected words by their stem, so a later case form is the same topic', () => {
    expect(topicTerms('클러스터에서')).toEqual(topicTerms('클러스터는'))
    expect(topicTerms('базой')).toEqual(topicTerms('базы'))
  })

  it('keeps each term once, first occurrence first, and stops at the cap', () => {
    expect(topicTerms('Redis cache, redis caches, Postgres')).toEqual(['redi', 'cach', 'postgr'])
    expect(topicTerms('alpha beta gamma delta', 2)).toEqual(['alpha', 'beta'])
  })
})
