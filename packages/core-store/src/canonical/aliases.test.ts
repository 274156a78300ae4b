import { describe, expect, it } from 'vitest'
import { aliasesOf } from '../../test/canonical-seed'
import { expectStoreError, manualClock, useTempStores } from '../../test/store-harness'
import { builderOf } from '../store/builder'
import { addAlias, resolveAlias } from './aliases'

describe('resolveAlias / addAlias', () => {
  const stores = useTempStores()

  it('resolves an unknown surface to its normalized form, and garbage to null', async () => {
    const store = stores.open()
    expect(await resolveAlias(store, { workspaceId: 'w1', surface: 'The PostgreSQL (db)' })).toBe(
      'postgresql',
    )
    expect(await resolveAlias(store, { workspaceId: 'w1', surface: '?!' })).toBeNull()
  })

  it('maps every spelling of an aliased surface to its canonical', async () => {
    const store = stores.open({ clock: manualClock().clock })
    expect(await addAlias(store, { workspaceId: 'w1', surface: 'Postgres', canonical: 'PostgreSQL' })).toBe(
      'postgresql',
    )
    for (const surface of ['postgres', 'Postgres', 'the POSTGRES', 'Postgres (database)']) {
      expect(await resolveAlias(store, { workspaceId: 'w1', surface })).toBe('postgresql')
    }
    const row = await builderOf(store).selectFrom('entity_aliases').selectAll().executeTakeFirstOrThrow()
    expect(row).toEqual({
      workspace_id: 'w1',
      surface: 'postgres',
      canonical: 'postgresql',
      created_at: '2026-03-01T10:00:00.000Z',
    })
  })

  it('keeps aliases per workspace', async () => {
    const store = stores.open()
    await addAlias(store, { workspaceId: 'w1', surface: 'pg', canonical: 'postgresql' })
    expect(await resolveAlias(store, { workspaceId: 'w2', surface: 'pg' })).toBe('pg')
  })

  it('never builds chains: a canonical that is an alias is followed, and old aliases are re-pointed', async () => {
    const store = stores.open()
    await addAlias(store, { workspaceId: 'w1', surface: 'pg', canonical: 'postgres' })
    await addAlias(store, { workspaceId: 'w1', surface: 'postgres', canonical: 'postgresql' })
    expect(await aliasesOf(store)).toEqual(['pg → postgresql', 'postgres → postgresql'])
    expect(await addAlias(store, { workspaceId: 'w1', surface: 'psql', canonical: 'pg' })).toBe('postgresql')
    // the reverse of an existing alias changes nothing: both names already mean one entity
    expect(await addAlias(store, { workspaceId: 'w1', surface: 'postgresql', canonical: 'postgres' })).toBe(
      'postgresql',
    )
    expect(await aliasesOf(store)).toEqual(['pg → postgresql', 'postgres → postgresql', 'psql → postgresql'])
  })

  it('re-aliasing a surface moves it to the new canonical', async () => {
    const store = stores.open()
    await addAlias(store, { workspaceId: 'w1', surface: 'mongo', canonical: 'mongodb' })
    await addAlias(store, { workspaceId: 'w1', surface: 'mongo', canonical: 'mongo_db_atlas' })
    expect(await resolveAlias(store, { workspaceId: 'w1', surface: 'Mongo' })).toBe('mongo_db_atlas')
  })

  it('follows an alias whose stored canonical drifted to that canonical form', async () => {
    const store = stores.open()
    await builderOf(store)
      .insertInto('entity_aliases')
      .values({ workspace_id: 'w1', surface: 'pg', canonical: 'PostgreSQL', created_at: 'x' })
      .execute()
    expect(await resolveAlias(store, { workspaceId: 'w1', surface: 'pg' })).toBe('postgresql')
  })

  it('rejects names without letters or digits and a missing workspace', async () => {
    const store = stores.open()
    const error = await expectStoreError(
      addAlias(store, { workspaceId: 'w1', surface: '--', canonical: 'x' }),
      'INVALID_INPUT',
    )
    expect(error.message).toMatchInlineSnapshot(`"Cannot alias "--" to "x": both need letters or digits."`)
    await expectStoreError(
      addAlias(store, { workspaceId: '', surface: 'a', canonical: 'b' }),
      'INVALID_INPUT',
    )
    await expectStoreError(resolveAlias(store, { workspaceId: '', surface: 'a' }), 'INVALID_INPUT')
    expect(await aliasesOf(store)).toEqual([])
  })
})
