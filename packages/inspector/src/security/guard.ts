import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { InspectorAuthOptions, Principal } from '../types'

export const SESSION_COOKIE = 'hymem_inspect'
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** The hostname of a Host header (`[::1]:8765` → `[::1]`, `localhost:80` → `localhost`). */
export function hostName(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1)
  const colon = host.lastIndexOf(':')
  return colon === -1 ? host : host.slice(0, colon)
}

function bearer(header: string | undefined): string | null {
  const match = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? '')
  return match ? match[1]!.trim() : null
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * The inspector's access rules: bearer tokens (API style) or a sign-in cookie derived from a token, the
 * workspaces each token may see, CSRF tokens bound to the caller, and the loopback Host check.
 */
export class Guard {
  readonly #secret: Uint8Array
  readonly #auth: InspectorAuthOptions | undefined
  readonly #hostCheck: boolean
  /** Session cookie value → the workspaces of the token it was made from. */
  readonly #sessions = new Map<string, '*' | ReadonlySet<string>>()
  readonly #tokens = new Map<string, '*' | ReadonlySet<string>>()

  constructor(options: { auth?: InspectorAuthOptions; loopback: boolean; secret?: Uint8Array }) {
    this.#secret = options.secret ?? randomBytes(32)
    this.#auth = options.auth
    this.#hostCheck = options.loopback || !options.auth
    for (const [token, workspaces] of Object.entries(options.auth?.tokens ?? {})) {
      const allowed = workspaces === '*' ? '*' : new Set(workspaces)
      this.#tokens.set(token, allowed)
      this.#sessions.set(this.#sign(`session:${token}`), allowed)
    }
  }

  get authRequired(): boolean {
    return this.#auth !== undefined
  }

  /** Whether the Host header may reach this server (loopback names only on a loopback bind or without auth). */
  hostAllowed(host: string | undefined): boolean {
    return !this.#hostCheck || LOOPBACK_HOSTS.has(hostName(host ?? '').toLowerCase())
  }

  /** Who the request is, or null when auth is on and it carries no valid token or sign-in cookie. */
  credentials(authorization: string | undefined, cookie: string | undefined): Principal | null {
    if (!this.#auth) return { via: 'open', allowed: '*', csrfKey: 'open' }
    const token = bearer(authorization)
    if (token !== null) {
      const allowed = this.#tokens.get(token)
      return allowed ? { via: 'bearer', allowed, csrfKey: this.#sign(`bearer:${token}`) } : null
    }
    if (cookie === undefined) return null
    for (const [session, allowed] of this.#sessions) {
      if (sameText(session, cookie)) return { via: 'cookie', allowed, csrfKey: session }
    }
    return null
  }

  /** The sign-in cookie value for a token, or null when the token is unknown. */
  sessionFor(token: string): string | null {
    return this.#tokens.has(token.trim()) ? this.#sign(`session:${token.trim()}`) : null
  }

  csrfToken(principal: Principal): string {
    return this.#sign(`csrf:${principal.csrfKey}`)
  }

  csrfValid(principal: Principal, token: unknown): boolean {
    return typeof token === 'string' && sameText(token, this.csrfToken(principal))
  }

  #sign(text: string): string {
    return createHmac('sha256', this.#secret).update(text).digest('base64url')
  }
}

/** Whether a write comes from this origin (Origin and Fetch Metadata headers, when the browser sends them). */
export function sameOrigin(request: Request): boolean {
  const site = request.headers.get('sec-fetch-site')
  if (site !== null && site !== 'same-origin' && site !== 'none') return false
  const origin = request.headers.get('origin')
  if (origin === null) return true
  try {
    return new URL(origin).host === (request.headers.get('host') ?? new URL(request.url).host)
  } catch {
    return false
  }
}
