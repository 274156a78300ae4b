import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { bearerToken, TokenTable, type WorkspaceGrant } from '@hymem/http-guard'
import type { InspectorAuthOptions, Principal } from '../types'

export const SESSION_COOKIE = 'hymem_inspect'

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * The inspector's access rules: bearer tokens (API style) or a sign-in cookie derived from a token, the
 * workspaces each token may see, and CSRF tokens bound to the caller. (Host, Origin and body types are the
 * shared request guard's.)
 */
export class Guard {
  readonly #secret: Uint8Array
  readonly #auth: InspectorAuthOptions | undefined
  readonly #tokens: TokenTable
  /** Session cookie value → the workspaces of the token it was made from. */
  readonly #sessions: { readonly cookie: string; readonly grant: WorkspaceGrant }[]

  constructor(options: { auth?: InspectorAuthOptions; secret?: Uint8Array }) {
    this.#secret = options.secret ?? randomBytes(32)
    this.#auth = options.auth
    this.#tokens = new TokenTable(options.auth?.tokens)
    this.#sessions = this.#tokens
      .entries()
      .map(({ token, grant }) => ({ cookie: this.#sign(`session:${token}`), grant }))
  }

  get authRequired(): boolean {
    return this.#auth !== undefined
  }

  /** Who the request is, or null when auth is on and it carries no valid token or sign-in cookie. */
  credentials(authorization: string | undefined, cookie: string | undefined): Principal | null {
    if (!this.#auth) return { via: 'open', allowed: '*', csrfKey: 'open' }
    const token = bearerToken(authorization)
    if (token !== null) {
      const allowed = this.#tokens.grantOf(token)
      return allowed ? { via: 'bearer', allowed, csrfKey: this.#sign(`bearer:${token}`) } : null
    }
    if (cookie === undefined) return null
    let found: Principal | null = null
    for (const session of this.#sessions) {
      if (sameText(session.cookie, cookie))
        found = { via: 'cookie', allowed: session.grant, csrfKey: session.cookie }
    }
    return found
  }

  /** The sign-in cookie value for a token, or null when the token is unknown. */
  sessionFor(token: string): string | null {
    return this.#tokens.grantOf(token.trim()) ? this.#sign(`session:${token.trim()}`) : null
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
