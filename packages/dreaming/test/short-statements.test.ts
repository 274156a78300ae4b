import { describe, expect, it } from 'vitest'
import { conversation, dreamWithRules, graphSnapshot, logLines, useTestStore } from './harness'

describe('short statements of preference or rejection', () => {
  const t = useTestStore()

  it('are chunked, reach the extractor and become facts', async () => {
    // Each statement between small talk, so no two merge into one chunk; the speaker is the peer alice.
    const statements = [
      'I use Travis for CI at work.',
      'I like Rust.',
      'Hate Gradle.',
      'We never use MySQL.',
      'Not a fan of Helm.',
      'No more Travis.',
    ]
    const turns = statements.flatMap((text) => [['user', text] as const, ['assistant', 'ok'] as const])
    await logLines(t.store, 's1', conversation('2026-02-20T09:00:00.000Z', turns))
    const report = await dreamWithRules(t)
    expect(report.status).toBe('ok')
    expect(report.chunksCreated).toBe(statements.length)
    const graph = Object.fromEntries(
      (await graphSnapshot(t.store)).map((e) => [e.triple.toLowerCase(), [e.pos, e.neg, e.status]]),
    )
    expect(graph).toEqual({
      'alice prefers rust': [1, 0, 'active'],
      'alice rejects gradle': [1, 0, 'active'],
      'alice avoids mysql': [1, 0, 'active'],
      'alice rejects helm': [1, 0, 'active'],
      // "No more Travis." counts against the use stated before.
      'alice uses travis': [1, 1, 'active'],
    })
  })
})
