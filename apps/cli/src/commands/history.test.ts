import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { captureContext, tempDir } from '../../test/harness'
import { seedRoot } from '../../test/seed'
import { createStyle } from '../format/style'
import { runCli } from '../run'
import { augmentCommand } from './augment'
import { renderConflicts } from './conflicts'
import { historyCommand } from './history'
import { notesCommand } from './notes'

describe('history and time on the command line', () => {
  let root: string
  let cleanup: () => void
  beforeEach(() => {
    ;({ dir: root, cleanup } = tempDir())
  })
  afterEach(() => cleanup())
  const context = () => captureContext({ env: { HYMEM_ROOT: root } })

  it('hymem history prints an entity’s facts with both clocks and their evidence', async () => {
    await seedRoot(root)
    const { ctx, stdout } = context()
    const history = await historyCommand('API', {}, ctx)
    expect(history.entity).toBe('api')
    expect(history.facts.map((f) => `${f.predicate} ${f.object}`)).toContain('deploys_to flyio')
    expect(stdout()).toMatch(/^History of api \(\d+ facts, oldest first\)\n/)
    expect(stdout()).toContain('true since 2026-06-14; learned 2026-06-15 in dream run 1')
    expect(stdout()).toMatch(/\+ 2026-06-14 extraction/)
    const json = context()
    expect(await runCli(['history', 'nobody', 'known', '--json'], json.ctx)).toBe(0)
    expect(JSON.parse(json.stdout())).toEqual({ entity: 'nobody_known', facts: [] })
  })

  it('hymem augment --as-of answers as HyMem would have then; a bad date is a usage error', async () => {
    await seedRoot(root)
    const then = await augmentCommand(
      'where do we deploy the API? Fly.io? PostgreSQL?',
      { asOf: '2026-06-12T00:00:00.000Z' },
      context().ctx,
    )
    expect(then.graphFacts).toEqual([])
    expect(then.hits.length).toBeGreaterThan(0)
    expect(then.hits.every((hit) => hit.createdAt < '2026-06-12')).toBe(true)
    const { ctx, stderr } = context()
    expect(await runCli(['augment', 'api', '--as-of', 'last week'], ctx)).toBe(2)
    expect(stderr()).toContain('expected a date or ISO-8601 time')
  })

  it('hymem conflicts lists contradicting facts (none here)', async () => {
    await seedRoot(root)
    const { ctx, stdout } = context()
    expect(await runCli(['conflicts'], ctx)).toBe(0)
    expect(stdout()).toBe('No conflicting facts.\n')
    const rendered = renderConflicts(
      [
        {
          kind: 'competing_object',
          subject: 'api',
          predicate: 'deploys_to',
          object: null,
          edges: [
            {
              id: 1,
              subject: 'api',
              predicate: 'deploys_to',
              object: 'fly',
              confidence: 0.75,
              posEvidence: 2,
              negEvidence: 0,
              lastSeen: '2026-06-14T00:00:00Z',
            },
            {
              id: 2,
              subject: 'api',
              predicate: 'deploys_to',
              object: 'render',
              confidence: 0.6,
              posEvidence: 1,
              negEvidence: 0,
              lastSeen: '2026-06-13T00:00:00Z',
            },
          ],
        },
      ],
      createStyle(false),
    )
    expect(rendered).toBe(
      'Conflicts (1)\n  api —deploys_to→ ?  (competing object)\n' +
        '    #1 api —deploys_to→ fly  conf 0.75  +2/−0  last seen 2026-06-14\n' +
        '    #2 api —deploys_to→ render  conf 0.60  +1/−0  last seen 2026-06-13\n',
    )
  })

  it('hymem notes lists active or archived notes and shows one by id', async () => {
    expect((await notesCommand(undefined, {}, context().ctx)) as { total: number }).toMatchObject({
      total: 0,
    })
    const { withHyMem } = await import('../open-hymem')
    const id = await withHyMem({}, context().ctx, async (hymem) => {
      const kept = await hymem.notes.remember({
        description: 'deploy day',
        content: 'We deploy on Tuesdays.',
      })
      const old = await hymem.notes.remember({ description: 'old ci', content: 'We used Jenkins.' })
      await hymem.notes.archive({ id: old.note.id, apply: true })
      return kept.note.id
    })
    const list = context()
    await notesCommand(undefined, {}, list.ctx)
    expect(list.stdout()).toMatch(
      /^1 note\(s\), page 1 of 1\n {2}\S+ {2}2026-06-15 {2}deploy day: We deploy on Tuesdays\.\n$/,
    )
    const archived = context()
    expect(await runCli(['notes', '--archived'], archived.ctx)).toBe(0)
    expect(archived.stdout()).toContain('old ci: We used Jenkins.')
    const one = context()
    await notesCommand(id, {}, one.ctx)
    expect(one.stdout()).toContain('We deploy on Tuesdays.')
    const missing = context()
    expect(await runCli(['notes', 'nope'], missing.ctx)).toBe(1)
    expect(missing.stderr()).toContain('no note has id nope')
  })
})
