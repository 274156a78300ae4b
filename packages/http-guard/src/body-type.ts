/** The kinds of request body a route may accept. */
export type BodyKind = 'json' | 'form' | 'multipart'

const JSON_TYPE = /^application\/(?:[a-z0-9.+-]+\+)?json$/

/** The kind of a `Content-Type` value (parameters such as `charset` ignored), or null for any other type. */
export function bodyKindOf(contentType: string | null): BodyKind | null {
  if (contentType === null) return null
  const essence = contentType.split(';', 1)[0]!.trim().toLowerCase()
  if (JSON_TYPE.test(essence)) return 'json'
  if (essence === 'application/x-www-form-urlencoded') return 'form'
  if (essence === 'multipart/form-data') return 'multipart'
  return null
}

/** Whether a request carries a body: a non-zero `Content-Length`, or chunked transfer. */
export function hasBody(request: Request): boolean {
  const length = request.headers.get('content-length')
  if (length !== null) return length.trim() !== '0'
  return request.headers.has('transfer-encoding') || request.body !== null
}
