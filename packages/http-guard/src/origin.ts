import { hostName, requestAuthority } from './host'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** GET, HEAD and OPTIONS read; every other method may change state. */
export function changesState(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase())
}

/** The request's `Origin` in the serialised form browsers send (`scheme://host[:port]`), or null without one. */
export function requestOrigin(request: Request): string | null {
  return request.headers.get('origin')
}

/**
 * Whether a request comes from a page of another origin, by the headers browsers attach: an `Origin` that is
 * not this server's own (`null` included), or Fetch Metadata saying `cross-site` / `same-site` (another
 * port of localhost is same-site). Clients outside a browser send neither and are never cross-site.
 */
export function fromAnotherOrigin(request: Request): boolean {
  const site = request.headers.get('sec-fetch-site')
  if (site === 'cross-site' || site === 'same-site') return true
  const origin = requestOrigin(request)
  if (origin === null) return false
  let originHost: string
  try {
    const url = new URL(origin)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return true
    originHost = url.host
  } catch {
    return true
  }
  const own = requestAuthority(request)
  return hostName(originHost) === null || originHost.toLowerCase() !== own.trim().toLowerCase()
}
