import { request } from 'node:http'

export interface RawResponse {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly body: string
}

/**
 * One HTTP request with headers exactly as given (`fetch` refuses to set `Host`), as a browser or an
 * attacker's script would send them.
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let answered = false
    const sent = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false },
      (res) => {
        answered = true
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        )
        res.on('error', reject)
      },
    )
    // A server may answer (413, say) and close before the body is all sent: the answer is what counts.
    sent.on('error', (error) => {
      if (!answered) reject(error)
    })
    sent.end(options.body)
  })
}

/**
 * Sends the headers and the first `sent` bytes of a body announced as `length` bytes, then drops the
 * connection: a client that gives up mid-upload.
 */
export function abandonedUpload(
  url: string,
  headers: Record<string, string>,
  length: number,
  sent: number,
): Promise<void> {
  return new Promise((resolve) => {
    const req = request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(length) },
      agent: false,
    })
    req.on('error', () => resolve())
    req.on('response', (res) => {
      res.resume()
      resolve()
    })
    req.write(Buffer.alloc(sent, 0x61), () => setTimeout(() => req.destroy(), 20))
    req.on('close', () => resolve())
  })
}

/**
 * A chunked body sent 16 KiB at a time, as a browser streams a large form, until the server answers (it
 * may answer before the body ends) or the body is all sent.
 */
export function chunkedRequest(url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let answered = false
    const req = request(url, {
      method: 'POST',
      headers: { ...headers, 'transfer-encoding': 'chunked' },
      agent: false,
    })
    req.on('response', (res) => {
      answered = true
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', (error) => {
      if (!answered) reject(error)
    })
    const send = (offset: number) => {
      if (answered) return req.destroy()
      if (offset >= body.length) return req.end()
      req.write(body.slice(offset, offset + 16 * 1024), () => setTimeout(() => send(offset + 16 * 1024), 5))
    }
    send(0)
  })
}
