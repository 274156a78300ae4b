/** Host names that only this machine can resolve to itself; a rebound DNS name never carries one of them. */
export const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]']

/**
 * The host name of a `Host` header or URL authority, lower-cased and without the port: `[::1]:8765` → `[::1]`,
 * `LocalHost:80` → `localhost`. Returns null when the value is not a plain authority (user info, a path, spaces).
 */
export function hostName(authority: string): string | null {
  const value = authority.trim().toLowerCase()
  if (value === '' || /[\s/@?#\\]/.test(value)) return null
  if (value.startsWith('[')) {
    const end = value.indexOf(']')
    if (end === -1) return null
    const rest = value.slice(end + 1)
    return rest === '' || /^:\d{1,5}$/.test(rest) ? value.slice(0, end + 1) : null
  }
  const colon = value.indexOf(':')
  if (colon === -1) return value
  return /^:\d{1,5}$/.test(value.slice(colon)) ? value.slice(0, colon) : null
}

/** The authority a request was sent to: its `Host` header, else the host of its URL (as in `app.request()`). */
export function requestAuthority(request: Request): string {
  const header = request.headers.get('host')
  if (header !== null) return header
  try {
    return new URL(request.url).host
  } catch {
    return ''
  }
}
