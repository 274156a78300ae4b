import { describe, expect, it } from 'vitest'
import { bearerToken, TokenTable } from './tokens'

describe('TokenTable', () => {
  const table = new TokenTable({ 'team-token-1234567': ['team'], 'admin-token-1234567': '*' })

  it('grants each token its workspaces', () => {
    expect(table.grantOf('admin-token-1234567')).toBe('*')
    expect([...(table.grantOf('team-token-1234567') as ReadonlySet<string>)]).toEqual(['team'])
  })

  it('knows no other token: prototype names, prefixes and near misses included', () => {
    for (const presented of [
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      '',
      'team-token-123456',
      'team-token-12345678',
      'TEAM-TOKEN-1234567',
    ]) {
      expect(table.grantOf(presented), presented).toBeNull()
    }
    expect(new TokenTable().grantOf('__proto__')).toBeNull()
  })

  it('reads the Bearer scheme in any case', () => {
    expect(bearerToken('Bearer abc')).toBe('abc')
    expect(bearerToken('  bearer   abc ')).toBe('abc')
    expect(bearerToken('Basic abc')).toBeNull()
    expect(bearerToken(undefined)).toBeNull()
  })
})
