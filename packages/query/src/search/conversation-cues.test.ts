import { describe, expect, it } from 'vitest'
import { conversationCue } from './conversation-cues'

describe('conversationCue', () => {
  it('tells summaries and questions over the whole conversation from questions about one moment', () => {
    expect(conversationCue('Can you give me a comprehensive summary of how we approached hiring?')).toBe(
      'summary',
    )
    expect(conversationCue('Summarise my progress on the thesis')).toBe('summary')
    expect(conversationCue('In which order did I bring up the vendors across our conversations?')).toBe(
      'over-time',
    )
    expect(conversationCue('How many times have I changed the deadline?')).toBe('over-time')
    expect(conversationCue('How has my budget evolved throughout the project?')).toBe('over-time')
    expect(conversationCue('What database did I pick for the API?')).toBeNull()
    expect(conversationCue('How many cats do I have?')).toBeNull()
  })
})
