import { StoreError } from '@hymem/core-store'
import { HyMemError } from 'hymem'
import { describe, expect, it } from 'vitest'
import { errorResponse, UNEXPECTED } from './error-status'

describe('errorResponse', () => {
  it("answers the packages' known errors with their status and message, URL secrets masked", () => {
    const unreachable = new StoreError(
      'UNREACHABLE',
      'cannot reach postgres://app:hunter2@db:5432/memory?sslpassword=k3y (ECONNREFUSED)',
    )
    expect(errorResponse(unreachable)).toEqual({
      status: 503,
      body: { detail: 'cannot reach postgres://app:****@db:5432/memory?sslpassword=**** (ECONNREFUSED)' },
      known: true,
    })
    expect(errorResponse(new HyMemError('NOT_FOUND', 'no session s1'))).toEqual({
      status: 404,
      body: { detail: 'no session s1' },
      known: true,
    })
  })

  it('answers anything else 500 without its message', () => {
    expect(errorResponse(new Error('postgres://app:hunter2@db/memory'))).toEqual({
      status: 500,
      body: { detail: UNEXPECTED },
      known: false,
    })
  })
})
