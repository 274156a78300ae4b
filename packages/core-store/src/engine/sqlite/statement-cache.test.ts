import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { createStatementCache } from './statement-cache'

describe('createStatementCache', () => {
  const sqlite = new Database(':memory:')
  afterEach(() => {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK')
  })

  it('reuses statements by SQL text and evicts the least recently used past capacity', () => {
    const cache = createStatementCache(sqlite, 2)
    const one = cache.prepare('SELECT 1 AS n')
    const two = cache.prepare('SELECT 2 AS n')
    expect(cache.prepare('SELECT 1 AS n')).toBe(one)
    cache.prepare('SELECT 3 AS n')
    expect(cache.prepare('SELECT 1 AS n')).toBe(one)
    expect(cache.prepare('SELECT 2 AS n')).not.toBe(two)
    expect(cache.prepare('SELECT 2 AS n').get()).toEqual({ n: 2 })
  })

  it('reports whether the connection is inside a transaction', () => {
    const cache = createStatementCache(sqlite)
    expect(cache.inTransaction).toBe(false)
    cache.prepare('BEGIN').run()
    expect(cache.inTransaction).toBe(true)
  })
})
