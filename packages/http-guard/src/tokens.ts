import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/** The workspaces a token may use: every one (`'*'`), or the listed ones. */
export type WorkspaceGrant = '*' | ReadonlySet<string>

/** Tokens as configured: token → workspace ids, or `'*'` for all. */
export type TokenGrants = Readonly<Record<string, readonly string[] | '*'>>

/**
 * Bearer tokens and what each grants. A presented token is compared with every known one as an HMAC digest
 * under a key made per table, in constant time and without an early exit, so neither timing nor a name that
 * an object's prototype happens to have (`__proto__`, `constructor`, `toString`) can pass for a token.
 */
export class TokenTable {
  readonly #key = randomBytes(32)
  readonly #entries: { readonly digest: Buffer; readonly token: string; readonly grant: WorkspaceGrant }[] =
    []

  constructor(tokens: TokenGrants = {}) {
    for (const token of Object.keys(tokens)) {
      const workspaces = tokens[token]!
      this.#entries.push({
        digest: this.#digest(token),
        token,
        grant: workspaces === '*' ? '*' : new Set(workspaces),
      })
    }
  }

  get size(): number {
    return this.#entries.length
  }

  /** What the presented token grants, or null when it is not one of the table's tokens. */
  grantOf(presented: string): WorkspaceGrant | null {
    const digest = this.#digest(presented)
    let found: WorkspaceGrant | null = null
    for (const entry of this.#entries) {
      if (timingSafeEqual(digest, entry.digest)) found = entry.grant
    }
    return found
  }

  /** Every token with its grant (to derive per-token secrets such as sign-in cookies). */
  entries(): readonly { readonly token: string; readonly grant: WorkspaceGrant }[] {
    return this.#entries.map(({ token, grant }) => ({ token, grant }))
  }

  #digest(token: string): Buffer {
    return createHmac('sha256', this.#key).update(token).digest()
  }
}

/** The token of an `Authorization: Bearer …` header, or null when there is none. */
export function bearerToken(authorization: string | null | undefined): string | null {
  const match = /^Bearer\s+(.+)$/i.exec(authorization?.trim() ?? '')
  return match ? match[1]!.trim() : null
}
