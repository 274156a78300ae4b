/** What a masked secret reads as. */
const MASKED = '****'

// `scheme://user:password@`: the password runs to the last `@` before the host, so an unescaped `@` in it
// is masked too.
const USERINFO_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/?#]*):([^\s/?#]*)@/gi

// `name=value` in a query string (`?sslpassword=…&…`) or a keyword connection string (`password='…'`).
const PARAMETER = /(^|[?&;\s,(])([a-z][\w.-]*)=('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^\s&#'"]*)/gi

const SECRET_PART = /pass|pwd|secret|token|apikey|accesskey|signature|credential/
const SECRET_NAMES: ReadonlySet<string> = new Set(['key', 'sig', 'auth', 'authorization'])

function isSecretName(name: string): boolean {
  const plain = name.toLowerCase().replace(/[-_.]/g, '')
  return SECRET_PART.test(plain) || SECRET_NAMES.has(plain)
}

/**
 * `text` with the password of every URL's userinfo and the value of every password-, token- or key-like
 * parameter (`password=`, `sslpassword=`, `api_key=`, `X-Amz-Signature=`, …) replaced by `****`. Takes a
 * connection URL or any text that contains URLs (an error message, a log line); the rest is unchanged, so
 * masking twice is the same as once.
 *
 * @example
 * maskSecrets('postgres://app:hunter2@db:5432/mem?sslpassword=x&sslmode=require')
 * // → 'postgres://app:****@db:5432/mem?sslpassword=****&sslmode=require'
 */
export function maskSecrets(text: string): string {
  return text
    .replace(USERINFO_PASSWORD, (whole, prefix: string, password: string) =>
      password === '' ? whole : `${prefix}:${MASKED}@`,
    )
    .replace(PARAMETER, (whole, before: string, name: string, value: string) =>
      value === '' || !isSecretName(name) ? whole : `${before}${name}=${MASKED}`,
    )
}
