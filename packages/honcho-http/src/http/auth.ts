import { bearerToken, TokenTable } from '@hymem/http-guard'
import type { Context, MiddlewareHandler } from 'hono'
import { HonchoHttpError, notFound } from '../errors'
import type { HonchoAuthOptions, HonchoEnv } from '../types'

/** Resolves the bearer token to the workspaces it may use; 401 when auth is on and the token is missing or unknown. */
export function authMiddleware(auth: HonchoAuthOptions | undefined): MiddlewareHandler<HonchoEnv> {
  const tokens = new TokenTable(auth?.tokens)
  return async (c, next) => {
    if (!auth) {
      c.set('allowed', '*')
      return next()
    }
    const token = bearerToken(c.req.header('authorization'))
    const allowed = token === null ? null : tokens.grantOf(token)
    if (!allowed) {
      throw new HonchoHttpError('UNAUTHORIZED', token ? 'Invalid authentication token' : 'Not authenticated')
    }
    c.set('allowed', allowed)
    return next()
  }
}

export function mayUse(c: Context<HonchoEnv>, workspaceId: string): boolean {
  const allowed = c.get('allowed')
  return allowed === '*' || allowed.has(workspaceId)
}

/** The `:ws` path parameter, or a 404 (never 403: other workspaces' existence is not revealed). */
export function workspaceParam(c: Context<HonchoEnv>): string {
  const ws = c.req.param('ws') ?? ''
  if (!mayUse(c, ws)) throw notFound('Workspace', ws)
  return ws
}
