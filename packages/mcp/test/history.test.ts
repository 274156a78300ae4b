import { describe, expect, it } from 'vitest'
import { textOf, useConnectedMemory } from './harness'

describe('history, time, conflicts and notes through the real MCP client', () => {
  const connected = useConnectedMemory()
  const call = (name: string, args: Record<string, unknown> = {}) =>
    connected().client.callTool({ name, arguments: args })

  it("hymem_history tells an entity's facts with both clocks; hymem_augment as_of answers as of then", async () => {
    await connected().memory.capture(
      [{ role: 'user', content: 'We deploy the API to Heroku.', createdAt: '2026-01-05T00:00:00Z' }],
      {
        workspaceId: 'proj',
        dream: true,
      },
    )
    const history = await call('hymem_history', { subject: 'the API' })
    expect(history.isError).toBeFalsy()
    expect(textOf(history)).toMatch(
      /^History of api, oldest first:\n- #\d+ api deploys_to heroku · \[active\] · true since 2026-01-05 · learned \d{4}-/,
    )
    expect(history.structuredContent).toMatchObject({
      entity: 'api',
      facts: [{ object: 'heroku', becameTrueAt: '2026-01-05T00:00:00.000Z' }],
    })
    expect(textOf(await call('hymem_history', { subject: 'nothing' }))).toBe(
      'HyMem knows no facts about nothing.',
    )

    const before = await call('hymem_augment', { message: 'where does the API deploy?', as_of: '2026-01-01' })
    expect(before.structuredContent).toMatchObject({ graph_facts: [], hits: [] })
    const bad = await call('hymem_augment', { message: 'x', as_of: 'last week' })
    expect(bad.isError).toBe(true)
    expect(textOf(bad)).toContain('as_of must be an ISO-8601 date or time')
  })

  it('hymem_conflicts reports none on a consistent memory', async () => {
    const result = await call('hymem_conflicts')
    expect(textOf(result)).toBe('No conflicting facts.')
    expect(result.structuredContent).toEqual({ conflicts: [] })
  })

  it('hymem_notes lists active or archived memories; hymem_note reads one by id', async () => {
    const kept = await connected().memory.notes.remember(
      { description: 'deploy day', content: 'Tuesdays' },
      { workspaceId: 'proj' },
    )
    const old = await connected().memory.notes.remember(
      { description: 'old ci', content: 'Jenkins' },
      { workspaceId: 'proj' },
    )
    await connected().memory.notes.archive({ id: old.note.id, apply: true }, { workspaceId: 'proj' })
    const active = await call('hymem_notes')
    expect(active.structuredContent).toMatchObject({
      total: 1,
      notes: [{ id: kept.note.id, content: 'Tuesdays' }],
    })
    const archived = await call('hymem_notes', { include_archived: true })
    expect(archived.structuredContent).toMatchObject({
      total: 1,
      notes: [{ id: old.note.id, archived_at: expect.any(String) }],
    })
    const one = await call('hymem_note', { id: old.note.id })
    expect(textOf(one)).toBe('old ci (archived)\n\nJenkins')
    const missing = await call('hymem_note', { id: 'nope' })
    expect(missing.isError).toBe(true)
  })
})
