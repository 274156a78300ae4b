import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { GuardConfigError, RequestGuard } from './guard'

const JSON_ONLY = { accepts: ['json'] } as const

function request(init: { method?: string; host?: string; headers?: Record<string, string>; body?: string }) {
  const headers = new Headers(init.headers)
  if (init.host !== undefined) headers.set('host', init.host)
  return new Request(`http://127.0.0.1:8765/v3/workspaces/list`, {
    method: init.method ?? 'POST',
    headers,
    ...(init.body === undefined ? {} : { body: init.body }),
  })
}

describe('Host', () => {
  const guard = new RequestGuard()

  it('accepts the loopback names on any port, in any case', () => {
    for (const host of ['localhost', 'LOCALHOST:8765', '127.0.0.1:1', '[::1]:8765', '[::1]']) {
      expect(guard.check(request({ method: 'GET', host }), JSON_ONLY)).toBeNull()
    }
  })

  it('answers 421 to every other name, including look-alikes a rebinding page could send', () => {
    for (const host of [
      'attacker.example:8765',
      'localhost.attacker.example',
      '127.0.0.1.nip.io:8765',
      'localhost:8765@evil',
      'localhost:abc',
      '127.0.0.2',
      '',
    ]) {
      expect(guard.check(request({ method: 'GET', host }), JSON_ONLY)?.status, host).toBe(421)
    }
  })

  it('refuses any host that is not exactly a loopback name (property)', () => {
    fc.assert(
      fc.property(fc.domain(), fc.integer({ min: 1, max: 65535 }), (domain, port) => {
        const refusal = guard.check(request({ method: 'GET', host: `${domain}:${port}` }), JSON_ONLY)
        expect(refusal?.status ?? 200).toBe(domain === 'localhost' ? 200 : 421)
      }),
    )
  })

  it('adds the configured names beyond loopback, and needs them there', () => {
    const public_ = new RequestGuard({ loopback: false, allowedHosts: ['memory.example.com'] })
    expect(public_.check(request({ method: 'GET', host: 'Memory.Example.com:443' }), JSON_ONLY)).toBeNull()
    expect(public_.check(request({ method: 'GET', host: 'other.example.com' }), JSON_ONLY)?.status).toBe(421)
    expect(() => new RequestGuard({ loopback: false })).toThrow(GuardConfigError)
    expect(() => new RequestGuard({ allowedHosts: ['a/b'] })).toThrow(/not a host name/)
  })
})

describe('cross-origin writes', () => {
  const guard = new RequestGuard()
  const json = { 'content-type': 'application/json' }

  it('lets clients without Origin or Fetch Metadata through (SDKs, curl, MCP clients)', () => {
    expect(guard.check(request({ host: '127.0.0.1:8765', headers: json, body: '{}' }), JSON_ONLY)).toBeNull()
  })

  it('lets the server’s own pages through', () => {
    const own = { ...json, origin: 'http://127.0.0.1:8765', 'sec-fetch-site': 'same-origin' }
    expect(guard.check(request({ host: '127.0.0.1:8765', headers: own, body: '{}' }), JSON_ONLY)).toBeNull()
  })

  it('answers 403 to a foreign, null or other-port Origin, and to cross-site / same-site Fetch Metadata', () => {
    for (const headers of <Record<string, string>[]>[
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'http://localhost:3000' },
      { origin: 'http://127.0.0.1:8766' },
      { origin: 'not a url' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ]) {
      const refused = guard.check(
        request({ host: '127.0.0.1:8765', headers: { ...json, ...headers }, body: '{}' }),
        JSON_ONLY,
      )
      expect(refused?.status, JSON.stringify(headers)).toBe(403)
    }
  })

  it('checks every method that may change state, with or without a body', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const refused = guard.check(
        request({ method, host: '127.0.0.1:8765', headers: { origin: 'https://evil.example' } }),
        JSON_ONLY,
      )
      expect(refused?.status, method).toBe(403)
    }
    const read = request({
      method: 'GET',
      host: '127.0.0.1:8765',
      headers: { origin: 'https://evil.example' },
    })
    expect(guard.check(read, JSON_ONLY)).toBeNull()
  })
})

describe('body types', () => {
  const guard = new RequestGuard()
  const post = (type: string | null, body = '{"a":1}') =>
    request({ host: 'localhost:8765', headers: type === null ? {} : { 'content-type': type }, body })

  it('takes JSON as application/json or +json, with parameters', () => {
    for (const type of [
      'application/json',
      'Application/JSON; charset=utf-8',
      'application/merge-patch+json',
    ]) {
      expect(guard.check(post(type), JSON_ONLY), type).toBeNull()
    }
  })

  it('answers 415 to a body under any other type: the no-preflight types a page can send among them', () => {
    for (const type of [
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      'xapplication/json',
    ]) {
      expect(guard.check(post(type), JSON_ONLY)?.status, type).toBe(415)
    }
  })

  it('lets bodiless writes through and takes forms where the route accepts them', () => {
    expect(guard.check(request({ host: 'localhost' }), JSON_ONLY)).toBeNull()
    const form = post('multipart/form-data; boundary=x', '--x--')
    expect(guard.check(form, { accepts: ['json', 'multipart'] })).toBeNull()
  })
})

describe('CORS', () => {
  it('grants none unless origins are configured', () => {
    const guard = new RequestGuard()
    const asked = request({
      method: 'OPTIONS',
      host: 'localhost:8765',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    })
    expect(guard.preflight(asked)).toBeNull()
    expect(guard.corsHeaders(asked)).toEqual({})
  })

  it('grants exactly the configured origins, without credentials, and lets their writes through', () => {
    const guard = new RequestGuard({ corsOrigins: ['https://app.example/'] })
    const preflight = guard.preflight(
      request({
        method: 'OPTIONS',
        host: 'localhost:8765',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, authorization',
        },
      }),
    )
    expect(preflight?.status).toBe(204)
    expect(preflight?.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(preflight?.headers.get('access-control-allow-credentials')).toBeNull()
    expect(preflight?.headers.get('access-control-allow-headers')).toBe('content-type, authorization')
    const write = request({
      host: 'localhost:8765',
      headers: {
        origin: 'https://app.example',
        'sec-fetch-site': 'cross-site',
        'content-type': 'application/json',
      },
      body: '{}',
    })
    expect(guard.check(write, JSON_ONLY)).toBeNull()
    const other = request({
      host: 'localhost:8765',
      headers: { origin: 'https://app.example.evil' },
      body: '{}',
    })
    expect(guard.check(other, JSON_ONLY)?.status).toBe(403)
    expect(() => new RequestGuard({ corsOrigins: ['app.example'] })).toThrow(GuardConfigError)
  })
})
