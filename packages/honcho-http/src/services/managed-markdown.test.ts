import { describe, expect, it } from 'vitest'
import { markdownProse, markdownStatements } from './managed-markdown'

const USER_MD = [
  '# User',
  '',
  'Written by hand: Alice works',
  'on the billing team',
  '',
  '<!-- HyMem:auto:profile:start -->',
  '- [fact] I live in Porto and work at Santo Antonio hospital',
  '- [preference] (alice) I prefer tea ×2',
  '<!-- HyMem:auto:profile:end -->',
  '',
].join('\n')

describe('managed Markdown as prose', () => {
  it('drops section markers and headings, renders profile entries and bullets as sentences', () => {
    expect(markdownStatements(USER_MD)).toEqual([
      'Written by hand: Alice works on the billing team.',
      'Fact: I live in Porto and work at Santo Antonio hospital.',
      'Preference (alice): I prefer tea.',
    ])
  })

  it('gives nothing for empty sections, and never an HTML comment', () => {
    const empty = '# Memory\n\n<!-- HyMem:auto:insights:start -->\n<!-- HyMem:auto:insights:end -->\n'
    expect(markdownProse(empty)).toBe('')
    expect(markdownProse('- a <!-- note --> b\n<!-- unclosed\n- hidden')).toBe('a b.')
    expect(markdownProse('1. First step\n* Second step!\n')).toBe('First step. Second step!')
  })
})
