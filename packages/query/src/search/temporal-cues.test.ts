import { describe, expect, it } from 'vitest'
import { asksWhen, namedPeriod, namesTime } from './temporal-cues'

describe('temporal cues', () => {
  it.each([
    ['When did Melanie paint a sunrise?', true],
    ['How long has Caroline had her current group of friends for?', true],
    ['What year did John start surfing?', true],
    ['Which month was the wedding in?', true],
    ['How many weeks passed between the two trips?', true],
    ['What did Caroline research?', false],
    ['How many pets does Melanie have?', false],
  ])('asksWhen(%j) is %s', (message, expected) => {
    expect(asksWhen(message)).toBe(expected)
  })

  it.each([
    ['I went to a support group yesterday.', true],
    ['We went camping two weekends ago.', true],
    ['Last Friday I passed the interview!', true],
    ['It was back in 2019.', true],
    ['I met back up with my teammates on the 15th.', true],
    ['Painting helps me explore my identity.', false],
    ['The api uses postgres.', false],
  ])('namesTime(%j) is %s', (text, expected) => {
    expect(namesTime(text)).toBe(expected)
  })

  it.each([
    ['Where did Joanna travel to in July 2022?', '2022-07-01', '2022-08-01'],
    ['Where was John between August 11 and August 15 2023?', '2023-08-01', '2023-09-01'],
    ['What changed from November 2022 to January, 2023?', '2022-11-01', '2023-02-01'],
    ['How many times has Melanie gone to the beach in 2023?', '2023-01-01', '2024-01-01'],
  ])('reads the period %j names', (text, from, to) => {
    expect(namedPeriod(text)).toEqual({ from: `${from}T00:00:00.000Z`, to: `${to}T00:00:00.000Z` })
  })

  it('names no period for a month it cannot place, or for nothing at all', () => {
    expect(namedPeriod('When did Melanie go camping in June?')).toBeNull()
    expect(namedPeriod('What does the api use?')).toBeNull()
    expect(namedPeriod('')).toBeNull()
  })
})
