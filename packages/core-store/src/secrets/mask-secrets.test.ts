import { describe, expect, it } from 'vitest'
import { maskSecrets } from './mask-secrets'

describe('maskSecrets', () => {
  it('masks the password of a URL and keeps the user, host and database', () => {
    expect(maskSecrets('postgres://app:hunter2@db.internal:5432/memory')).toBe(
      'postgres://app:****@db.internal:5432/memory',
    )
    expect(maskSecrets('postgresql://:only-a-password@db/memory')).toBe('postgresql://:****@db/memory')
  })

  it('masks a password that holds an unescaped @ up to the host', () => {
    expect(maskSecrets('postgres://app:p@ss@word@db/memory')).toBe('postgres://app:****@db/memory')
  })

  it('masks password-like query parameters, whatever their case or position', () => {
    expect(
      maskSecrets(
        'postgres://app@db/memory?password=hunter2&sslmode=require&sslpassword=k3y&PassWord=x#frag',
      ),
    ).toBe('postgres://app@db/memory?password=****&sslmode=require&sslpassword=****&PassWord=****#frag')
    expect(
      maskSecrets('https://api.example/v1?api_key=abc&api-key=def&key=ghi&access_token=jkl&model=gpt'),
    ).toBe('https://api.example/v1?api_key=****&api-key=****&key=****&access_token=****&model=gpt')
    expect(maskSecrets('https://bucket.s3/x?X-Amz-Credential=AK%2F1&X-Amz-Signature=ff&X-Amz-Date=1')).toBe(
      'https://bucket.s3/x?X-Amz-Credential=****&X-Amz-Signature=****&X-Amz-Date=1',
    )
  })

  it('masks both at once, and in a keyword connection string', () => {
    expect(maskSecrets('postgres://app:hunter2@db/memory?password=again')).toBe(
      'postgres://app:****@db/memory?password=****',
    )
    expect(maskSecrets("host=db user=app password='two words' sslpassword=x dbname=memory")).toBe(
      'host=db user=app password=**** sslpassword=**** dbname=memory',
    )
  })

  it('masks every URL inside an error message or a log line', () => {
    expect(
      maskSecrets(
        'cannot reach https://bot:tok3n@llm.example/v1 (ECONNREFUSED); fallback postgres://a:b@c/d?password=e failed',
      ),
    ).toBe(
      'cannot reach https://bot:****@llm.example/v1 (ECONNREFUSED); fallback postgres://a:****@c/d?password=**** failed',
    )
    expect(maskSecrets(JSON.stringify({ database: 'postgres://u@h/d?password=s3cret' }))).toBe(
      '{"database":"postgres://u@h/d?password=****"}',
    )
  })

  it('leaves text without secrets alone, and masking twice equals masking once', () => {
    const plain =
      'listening on http://127.0.0.1:8765 · backend sqlite /home/me/.hermes/hymem.sqlite · a=b c:d@'
    expect(maskSecrets(plain)).toBe(plain)
    expect(maskSecrets('postgres://u:@h/d?password=')).toBe('postgres://u:@h/d?password=')
    const once = maskSecrets('postgres://u:p@h/d?password=s&token=t')
    expect(maskSecrets(once)).toBe(once)
  })
})
