import type { Insight, ProfileData, ProfileEntry } from 'hymem'
import { describe, expect, it } from 'vitest'
import { markdownStatements, memoryStatements, userStatements } from './managed-markdown'

const entry = (peerId: string, kind: string, statement: string, posEvidence = 1): ProfileEntry => ({
  id: posEvidence,
  workspaceId: 'w',
  peerId,
  kind,
  statement,
  statementKey: statement.toLowerCase(),
  posEvidence,
  negEvidence: 0,
  firstSeen: '2026-01-01T00:00:00.000Z',
  lastSeen: '2026-01-01T00:00:00.000Z',
})

const insight: Insight = {
  kind: 'preference',
  subject: 'alice',
  predicate: 'prefers',
  object: 'tea',
  confidence: 0.8,
  text: 'alice prefers tea (confidence 0.80)',
}

const data = (overrides: Partial<ProfileData>): ProfileData => ({
  entries: [],
  insights: [],
  userNotes: '',
  memoryNotes: '',
  ...overrides,
})

describe('USER.md / MEMORY.md as prose', () => {
  it('renders hand-written Markdown as sentences: no headings, bullets or comments', () => {
    const notes = '# User\n\nWritten by hand: Alice works\non the billing team\n\n- likes maps\n'
    expect(markdownStatements(notes)).toEqual([
      'Written by hand: Alice works on the billing team.',
      'likes maps.',
    ])
    const empty = '# Memory\n\n<!-- HyMem:auto:insights:start -->\n<!-- HyMem:auto:insights:end -->\n'
    expect(markdownStatements(empty)).toEqual([])
    expect(markdownStatements('- a <!-- note --> b\n<!-- unclosed\n- hidden')).toEqual(['a b.'])
    expect(markdownStatements('1. First step\n* Second step!\n')).toEqual(['First step.', 'Second step!'])
  })

  it('gives the hand-written statements, then the typed profile entries, naming peers only among several', () => {
    const single = data({
      userNotes: 'Written by hand.\n',
      entries: [entry('alice', 'preference', 'I prefer tea', 2), entry('alice', 'fact', 'I live in Porto')],
    })
    expect(userStatements(single)).toEqual([
      'Written by hand.',
      'Preference: I prefer tea.',
      'Fact: I live in Porto.',
    ])
    const several = data({
      entries: [entry('alice', 'preference', 'I prefer tea'), entry('', 'fact', 'The team uses Postgres.')],
    })
    expect(userStatements(several)).toEqual([
      'Preference (alice): I prefer tea.',
      'Fact: The team uses Postgres.',
    ])
  })

  it('gives the hand-written MEMORY.md statements, then the insights', () => {
    expect(
      memoryStatements(data({ memoryNotes: '# Memory\n\n- Deploys on Fridays', insights: [insight] })),
    ).toEqual(['Deploys on Fridays.', 'alice prefers tea (confidence 0.80).'])
    expect(memoryStatements(data({}))).toEqual([])
  })
})
