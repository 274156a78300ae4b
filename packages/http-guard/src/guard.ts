import { type BodyKind, bodyKindOf, hasBody } from './body-type'
import { hostName, LOOPBACK_NAMES, requestAuthority } from './host'
import { changesState, fromAnotherOrigin, requestOrigin } from './origin'

export interface RequestGuardOptions {
  /** Whether the server listens on a loopback address only. @default true */
  readonly loopback?: boolean
  /**
   * Host names (a port in the entry is ignored) requests may name besides the loopback names: the
   * `HYMEM_ALLOWED_HOSTS` of a server reached under another name. Required when `loopback` is false.
   */
  readonly allowedHosts?: readonly string[]
  /** Origins (`https://app.example`) granted CORS, credentials off: `HYMEM_CORS_ORIGINS`. @default none */
  readonly corsOrigins?: readonly string[]
}

/** What one route group accepts as a request body. */
export interface BodyRules {
  readonly accepts: readonly BodyKind[]
}

/** Why a request was refused: the status to answer and a one-line reason for its body. */
export interface Refusal {
  readonly status: 403 | 415 | 421
  readonly reason: string
}

/** Thrown for a guard configuration that cannot be served safely. */
export class GuardConfigError extends Error {
  override readonly name = 'GuardConfigError'
}

const BODY_TYPE_NAMES: Readonly<Record<BodyKind, string>> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
}

function originOf(entry: string): string {
  try {
    const url = new URL(entry.trim())
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin
  } catch {}
  throw new GuardConfigError(
    `CORS origin ${JSON.stringify(entry)} is not an http(s) origin such as https://app.example`,
  )
}

/**
 * The rules every HTTP surface of HyMem applies before any route runs, so a web page the user opens cannot
 * use a server on this machine: DNS rebinding (a foreign `Host`), cross-site writes (a foreign `Origin` or
 * Fetch Metadata), bodies disguised as forms or text (a JSON body must say so), and CORS only for origins
 * the operator named. Framework-free: `check` reads only standard `Request` headers.
 */
export class RequestGuard {
  readonly #hosts: ReadonlySet<string>
  readonly #corsOrigins: ReadonlySet<string>

  constructor(options: RequestGuardOptions = {}) {
    const extra = (options.allowedHosts ?? []).map((entry) => {
      const name = hostName(entry)
      if (name === null)
        throw new GuardConfigError(`allowed host ${JSON.stringify(entry)} is not a host name`)
      return name
    })
    if (options.loopback === false && extra.length === 0) {
      throw new GuardConfigError(
        'a server beyond loopback needs the host names it is reached by: set HYMEM_ALLOWED_HOSTS (e.g. memory.example.com)',
      )
    }
    this.#hosts = new Set([...LOOPBACK_NAMES, ...extra])
    this.#corsOrigins = new Set((options.corsOrigins ?? []).map(originOf))
  }

  /** Host names requests may name. */
  get hosts(): readonly string[] {
    return [...this.#hosts]
  }

  /** Why the request must not reach a route, or null when it may. */
  check(request: Request, rules: BodyRules): Refusal | null {
    const authority = requestAuthority(request)
    const name = hostName(authority)
    if (name === null || !this.#hosts.has(name)) {
      return { status: 421, reason: `Host ${JSON.stringify(authority)} is not a name this server answers to` }
    }
    if (!changesState(request.method)) return null
    if (fromAnotherOrigin(request) && this.corsOrigin(request) === null) {
      return { status: 403, reason: 'Cross-origin requests may not change this memory' }
    }
    if (!hasBody(request)) return null
    const kind = bodyKindOf(request.headers.get('content-type'))
    if (kind === null || !rules.accepts.includes(kind)) {
      const wanted = rules.accepts.map((k) => BODY_TYPE_NAMES[k]).join(' or ')
      return { status: 415, reason: `Request bodies here must be sent as ${wanted || 'nothing'}` }
    }
    return null
  }

  /** The request's origin when CORS is granted to it, else null. */
  corsOrigin(request: Request): string | null {
    const origin = requestOrigin(request)
    return origin !== null && this.#corsOrigins.has(origin) ? origin : null
  }

  /** The CORS headers for a response to this request (none unless its origin was granted). */
  corsHeaders(request: Request): Record<string, string> {
    const origin = this.corsOrigin(request)
    return origin === null ? {} : { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' }
  }

  /** The answer to a CORS preflight from a granted origin, or null when this is not one. */
  preflight(request: Request): Response | null {
    if (request.method !== 'OPTIONS' || !request.headers.has('access-control-request-method')) return null
    const origin = this.corsOrigin(request)
    if (origin === null) return null
    const asked = request.headers.get('access-control-request-headers') ?? ''
    const headers = asked
      .split(',')
      .map((h) => h.trim())
      .filter((h) => /^[A-Za-z0-9-]{1,64}$/.test(h))
    return new Response(null, {
      status: 204,
      headers: {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
        ...(headers.length > 0 ? { 'Access-Control-Allow-Headers': headers.join(', ') } : {}),
        'Access-Control-Max-Age': '600',
        Vary: 'Origin',
      },
    })
  }
}
