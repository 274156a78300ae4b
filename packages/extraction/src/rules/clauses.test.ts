import { describe, expect, it } from 'vitest'
import { splitClauses, startsWithSubjectVerb } from './clauses'
import { extractFactsByRules } from './extract-facts'
import { cleanPhrase } from './noun-phrase'

const facts = (text: string) =>
  extractFactsByRules(text).triples.map((t) => [t.subject, t.predicate, t.object, t.polarity])

describe('splitClauses', () => {
  it.each([
    ['We switched from MySQL to PostgreSQL, and Ledgerly depends on Redis.', 2],
    ['The API is tested with Vitest, and the web app is tested with Playwright.', 2],
    ['The API runs on Fly.io and logs go to Grafana Loki.', 2],
    ['We use Postgres; the cache runs on Redis.', 2],
    ['The frontend is on Vercel whereas the API is on Fly.io.', 2],
    ['We use Sentry, while the mobile app uses Crashlytics.', 2],
    ['I prefer Neovim and my team uses VS Code.', 2],
  ])('splits a compound sentence into its clauses: %s', (sentence, count) => {
    expect(splitClauses(sentence)).toHaveLength(count)
  })

  it.each([
    'Tom and Jerry use Vim.',
    'The worker reads and writes to S3.',
    'We use React, TypeScript, and Vite.',
    'We use Postgres, but not MySQL.',
    'We use Postgres and deploy to Fly.io.',
    'We deploy the frontend to Vercel and the API to Fly.io.',
    'We use Grafana for dashboards and PagerDuty for alerts.',
  ])('keeps coordinated subjects, verbs and objects in one clause: %s', (sentence) => {
    expect(splitClauses(sentence)).toEqual([sentence])
  })

  it('recognises a new subject + verb, and not a verb or a bare noun phrase', () => {
    expect(startsWithSubjectVerb('logs go to Grafana Loki')).toBe(true)
    expect(startsWithSubjectVerb('the web app is tested with Playwright')).toBe(true)
    expect(startsWithSubjectVerb('we deploy to Fly.io')).toBe(true)
    expect(startsWithSubjectVerb('writes to S3')).toBe(false)
    expect(startsWithSubjectVerb('deploy to Fly.io')).toBe(false)
    expect(startsWithSubjectVerb('PagerDuty for alerts')).toBe(false)
  })
})

describe('entity phrases stop at clause boundaries', () => {
  it('refuses a phrase that contains a finite verb', () => {
    expect(cleanPhrase('Ledgerly depends on Redis')).toBeUndefined()
    expect(cleanPhrase('logs go to Grafana Loki')).toBeUndefined()
    expect(cleanPhrase('the integration tests')).toBe('integration tests')
    expect(cleanPhrase('Google Cloud Run')).toBe('Google Cloud Run')
  })

  it('extracts each clause of a compound sentence on its own', () => {
    expect(facts('We switched from MySQL to PostgreSQL, and Ledgerly depends on Redis.')).toEqual([
      ['PostgreSQL', 'replaces', 'MySQL', 1],
      ['team', 'uses', 'PostgreSQL', 1],
      ['team', 'uses', 'MySQL', -1],
      ['Ledgerly', 'depends_on', 'Redis', 1],
    ])
    expect(facts('The API is tested with Vitest, and the web app is tested with Playwright.')).toEqual([
      ['API', 'tested_by', 'Vitest', 1],
      ['web app', 'tested_by', 'Playwright', 1],
    ])
    expect(facts('The API runs on Fly.io and logs go to Grafana Loki.')).toEqual([
      ['API', 'runs_on', 'Fly.io', 1],
    ])
  })

  it('shares one verb among coordinated subjects, and one subject among coordinated verbs', () => {
    expect(facts('Tom and Jerry use Vim.')).toEqual(
      expect.arrayContaining([
        ['Tom', 'uses', 'Vim', 1],
        ['Jerry', 'uses', 'Vim', 1],
      ]),
    )
    expect(facts('Tom and Jerry use Vim.')).toHaveLength(2)
    expect(facts('The worker reads and writes to S3.')).toEqual([['worker', 'connects_to', 'S3', 1]])
    const gateway = facts('The gateway reads from Redis and writes to Postgres.')
    expect(gateway).toHaveLength(2)
    expect(gateway).toEqual(
      expect.arrayContaining([
        ['gateway', 'connects_to', 'Redis', 1],
        ['gateway', 'connects_to', 'Postgres', 1],
      ]),
    )
  })

  it('never puts a verb inside a subject or an object', () => {
    const sentences = [
      'We switched from MySQL to PostgreSQL, and Ledgerly depends on Redis.',
      'The API runs on Fly.io and logs go to Grafana Loki.',
      'The API depends on Redis and the worker depends on RabbitMQ.',
      'I prefer Neovim and my team uses VS Code.',
    ]
    for (const s of sentences) {
      for (const t of extractFactsByRules(s).triples) {
        expect(`${t.subject} ${t.object}`).not.toMatch(/\b(?:depends|go|uses|runs)\b/)
      }
    }
  })
})

describe('purpose clauses', () => {
  it('reads "use X to test Y" as Y tested_by X, for each coordinated pair', () => {
    expect(facts('We use Vitest to test the API, and Playwright to test the web app.')).toEqual([
      ['team', 'uses', 'Vitest', 1],
      ['team', 'uses', 'Playwright', 1],
      ['API', 'tested_by', 'Vitest', 1],
      ['web app', 'tested_by', 'Playwright', 1],
    ])
  })

  it('keeps a digit inside a tool name instead of reading it as a version ("k6")', () => {
    expect(facts('We use k6 to test the API.')).toEqual([
      ['team', 'uses', 'k6', 1],
      ['API', 'tested_by', 'k6', 1],
    ])
  })
})
