import { describe, expect, it } from 'vitest'
import { statesStandingRule } from './standing-rules'

describe('statesStandingRule', () => {
  it.each([
    'Always show code examples in TypeScript.',
    'please never suggest paid tools',
    'From now on, keep answers under five lines.',
    "I've been told to always state the base cases explicitly.",
    'I prefer e-books for their portability.',
    "I'd generally prefer evening sessions.",
    'I prioritize battery life over raw graphics power.',
    'I prioritised multimedia storytelling to reach more readers.',
    "I've been prioritizing team success over individual praise.",
    'My preference is a quiet hotel near the station.',
    "I'd rather keep the budget in a spreadsheet.",
  ])('holds for %j', (text) => {
    expect(statesStandingRule(text)).toBe(true)
  })

  it.each([
    'How should I prioritize my tasks this week?',
    'Do I prefer the blue one or the red one?',
    'I am not sure whether I prefer tea.',
    'Can you always be this helpful? Thanks!',
    'The team always meets on Mondays.',
    'What are the priorities for the launch?',
  ])('does not hold for %j', (text) => {
    expect(statesStandingRule(text)).toBe(false)
  })
})
