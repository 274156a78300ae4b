import { Hono, type MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { InspectorDeps } from '../deps'
import { InspectorError } from '../http/errors'
import { homeUrl } from '../render/layout'
import { SESSION_COOKIE } from '../security/guard'
import type { InspectorEnv } from '../types'
import { signInPage } from '../views/simple'

/** Sign-in (a token kept as an HttpOnly, SameSite=Strict cookie) and sign-out. */
export function authRoutes(deps: InspectorDeps): Hono<InspectorEnv> {
  const { guard, base } = deps
  const app = new Hono<InspectorEnv>()
  const home = homeUrl({ base })
  app.get('/sign-in', async (c) =>
    guard.authRequired ? c.html(signInPage(await deps.frame(c, null), false)) : c.redirect(home, 303),
  )
  app.post('/sign-in', async (c) => {
    if (!guard.authRequired) return c.redirect(home, 303)
    const token = (await c.req.parseBody()).token
    const session = typeof token === 'string' ? guard.sessionFor(token) : null
    if (session === null) return c.html(signInPage(await deps.frame(c, null), true), 401)
    setCookie(c, SESSION_COOKIE, session, {
      httpOnly: true,
      sameSite: 'Strict',
      path: base === '' ? '/' : base,
      secure: new URL(c.req.url).protocol === 'https:',
    })
    return c.redirect(home, 303)
  })
  return app
}

/** Every page below needs a caller: the open loopback server's, a bearer token's, or a sign-in cookie's. */
export function requireCredentials(deps: InspectorDeps): MiddlewareHandler<InspectorEnv> {
  return async (c, next) => {
    const principal = deps.guard.credentials(c.req.header('authorization'), getCookie(c, SESSION_COOKIE))
    if (!principal) {
      c.header('WWW-Authenticate', 'Bearer')
      const wantsPage = c.req.method === 'GET' && (c.req.header('accept') ?? '').includes('text/html')
      if (wantsPage) return c.html(signInPage(await deps.frame(c, null), false), 401)
      return c.text('Not authenticated: send Authorization: Bearer <token> or sign in.', 401)
    }
    c.set('principal', principal)
    c.set('csrf', deps.guard.csrfToken(principal))
    return next()
  }
}

/**
 * Writes must be POSTs carrying the caller's CSRF token (a bearer-token request is exempt: browsers never
 * attach that header on their own). The request guard has already refused writes from other origins.
 */
export function requireSafeWrite(deps: InspectorDeps): MiddlewareHandler<InspectorEnv> {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next()
    if (c.req.method !== 'POST') throw new InspectorError(400, 'The inspector takes GET and POST only.')
    const principal = c.get('principal')
    if (principal.via !== 'bearer') {
      const form = await c.req.parseBody()
      if (!deps.guard.csrfValid(principal, form._csrf))
        throw new InspectorError(
          403,
          'The form has expired or came from another page: reload it and try again.',
        )
    }
    return next()
  }
}

/** Signs out: forgets the cookie. */
export function signOutRoute(deps: InspectorDeps): Hono<InspectorEnv> {
  const app = new Hono<InspectorEnv>()
  app.post('/sign-out', (c) => {
    deleteCookie(c, SESSION_COOKIE, { path: deps.base === '' ? '/' : deps.base })
    return c.redirect(`${deps.base}/sign-in`, 303)
  })
  return app
}
