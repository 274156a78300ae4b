import { describe, expect, it } from 'vitest'
import { createRulesExtractor } from './rules-extractor'

const rules = createRulesExtractor()

describe('createRulesExtractor: facts', () => {
  it('adds no triple from text in a script it cannot read, and counts what it left out', async () => {
    const extractor = createRulesExtractor()
    for (const text of [
      '我们的后端服务部署在阿里云上',
      '東京のサーバーに移行しました',
      'Мы используем Redis',
    ]) {
      expect((await extractor.extractFacts({ text: `user: ${text}` })).triples).toEqual([])
    }
    const mixed = await extractor.extractFacts({ text: 'user: I use Vim and 我们用Redis' })
    expect(mixed.triples.map((t) => t.object)).toEqual(['Vim'])
    expect(mixed.dropped.triples).toBe(1)
  })

  it('encodes "switched from X to Y" as replaces + uses + negated uses, with evidence and scope', async () => {
    const r = await rules.extractFacts({ text: 'We switched from MySQL to Postgres last month.' })
    expect(r.triples).toEqual([
      expect.objectContaining({
        subject: 'Postgres',
        predicate: 'replaces',
        object: 'MySQL',
        polarity: 1,
        temporalScope: 'last month',
      }),
      expect.objectContaining({ subject: 'team', predicate: 'uses', object: 'Postgres', polarity: 1 }),
      expect.objectContaining({ subject: 'team', predicate: 'uses', object: 'MySQL', polarity: -1 }),
    ])
    expect(r.triples[0]?.evidenceText).toBe('We switched from MySQL to Postgres last month.')
    expect(r).toMatchObject({ llmCalls: 0, usage: { promptTokens: 0, completionTokens: 0 } })
  })

  it('reads stance and frequency adverbs as remarks, never as objects or parts of one', async () => {
    const facts = async (text: string) =>
      (await rules.extractFacts({ text })).triples.map((t) => `${t.subject} ${t.predicate} ${t.object}`)
    expect(await facts('I prefer emacs, honestly.')).toEqual(['user prefers emacs'])
    expect(await facts('I prefer Kotlin personally')).toEqual(['user prefers Kotlin'])
    expect(await facts('The api uses Postgres, obviously.')).toEqual(['api uses Postgres'])
    expect(await facts('I mostly use Python and occasionally Rust.')).toEqual([
      'user uses Python',
      'user uses Rust',
    ])
    expect(await facts('Frankly, we use MySQL, sometimes Redis too.')).toEqual([
      'team uses MySQL',
      'team uses Redis',
    ])
  })

  it('links people and the speaker to projects with part_of and types them', async () => {
    const r = await rules.extractFacts({ text: "Atta is working on MedFlow. I'm working on MedFlow too." })
    expect(r.triples.map((t) => [t.subject, t.predicate, t.object])).toEqual([
      ['Atta', 'part_of', 'MedFlow'],
      ['user', 'part_of', 'MedFlow'],
    ])
    expect(r.entityTypes).toEqual(
      expect.arrayContaining([
        { entity: 'Atta', type: 'person' },
        { entity: 'MedFlow', type: 'project' },
      ]),
    )
  })

  it('records versions as value_text on requires_version', async () => {
    const r = await rules.extractFacts({ text: 'The CLI requires Python 3.10 or newer.' })
    expect(r.triples).toEqual([
      expect.objectContaining({
        subject: 'CLI',
        predicate: 'requires_version',
        object: 'Python',
        valueText: '>=3.10',
        valueNumeric: 3.1,
      }),
    ])
  })

  it('ignores assistant turns, code blocks and inline code expressions', async () => {
    const text = [
      'assistant: You use MongoDB and deploy to Heroku.',
      'user: We use Postgres.',
      '```ts',
      'we use redis // in a comment',
      '```',
      'const db = connect(`we use sqlite`);',
      'I use `pnpm` daily.',
    ].join('\n')
    const r = await rules.extractFacts({ text })
    expect(r.triples.map((t) => `${t.subject} ${t.predicate} ${t.object}`)).toEqual([
      'team uses Postgres',
      'user uses pnpm',
    ])
  })

  it('produces no facts from questions, hypotheticals and hedges', async () => {
    const r = await rules.extractFacts({
      text: 'Should we use Kafka? If we used Kafka we would need ZooKeeper. Maybe deploy to AWS. I think Bob uses Emacs.',
    })
    expect(r.triples).toEqual([])
  })

  it('drops facts matching negative examples (case-insensitive) and counts them', async () => {
    const r = await rules.extractFacts({
      text: 'We use Postgres and Redis.',
      negativeExamples: [{ subject: 'TEAM', predicate: 'uses', object: 'redis' }],
    })
    expect(r.triples.map((t) => t.object)).toEqual(['Postgres'])
    expect(r.dropped).toEqual({ triples: 1, markers: 0 })
  })

  it('emits markers for corrections, style requests, preferences and rejections', async () => {
    const r = await rules.extractFacts({
      text: "No, actually it's port 5433. Please be concise. I prefer tabs over spaces. Please don't suggest MongoDB again.",
    })
    expect(r.markers).toEqual([
      { kind: 'correction', statement: 'User corrected the assistant: Actually it is port 5433.' },
      { kind: 'style', statement: 'User asked: Be concise.' },
      { kind: 'preference', statement: 'User prefers tabs over spaces.' },
      { kind: 'rejection', statement: 'User does not want suggestions of MongoDB.' },
    ])
  })

  it.each([
    ['I like Rust.', ['user', 'prefers', 'Rust', 1]],
    ['We love Kotlin.', ['team', 'prefers', 'Kotlin', 1]],
    ['Honestly, love Svelte.', ['user', 'prefers', 'Svelte', 1]],
    ['Really enjoying Astro.', ['user', 'prefers', 'Astro', 1]],
    ["I'm a huge fan of Elixir.", ['user', 'prefers', 'Elixir', 1]],
    ['Maria is a fan of Vue.', ['Maria', 'prefers', 'Vue', 1]],
    ["Don't love Gradle.", ['user', 'rejects', 'Gradle', 1]],
    ['Not a big fan of Terraform.', ['user', 'rejects', 'Terraform', 1]],
    ['Hating Webpack right now.', ['user', 'rejects', 'Webpack', 1]],
    ['Never using Jira again.', ['user', 'avoids', 'Jira', 1]],
    ['Not using Docker anymore.', ['user', 'uses', 'Docker', -1]],
    ['Stopped using Yarn.', ['user', 'uses', 'Yarn', -1]],
    ['No more Docker for us.', ['team', 'uses', 'Docker', -1]],
    ['I gave up on Ember.', ['user', 'uses', 'Ember', -1]],
  ])('reads the short statement "%s"', async (text, expected) => {
    const r = await rules.extractFacts({ text })
    expect(r.triples.map((t) => [t.subject, t.predicate, t.object, t.polarity])).toEqual([expected])
  })

  it.each([
    'Like I said, the cache is warm.',
    'Just like Redis, Valkey is fast.',
    'Looks like Postgres is slow.',
    'I like that.',
    'I like your idea.',
    'I like the new UI.',
    'I love how fast Bun is.',
    'I like working here.',
    'Love it!',
    'Everyone likes Go.',
    'No more meetings.',
    'We need no more than two nodes.',
    "I'm done with the report.",
    'I gave up on the idea.',
    'Never use var.',
    'Still using Vim.',
  ])('reads no fact into "%s"', async (text) => {
    expect((await rules.extractFacts({ text })).triples).toEqual([])
  })

  it.each([
    ["Bob's favourite editor is Helix.", ['Bob', 'prefers', 'Helix', 1]],
    ['I use Arch, btw.', ['user', 'uses', 'Arch', 1]],
  ])('reads "%s"', async (text, expected) => {
    const r = await rules.extractFacts({ text })
    expect(r.triples.map((t) => [t.subject, t.predicate, t.object, t.polarity])).toEqual([expected])
  })

  it('is deterministic', async () => {
    const text = 'We deploy the API to Fly.io and run Postgres on Hetzner. Our CI runs on GitHub Actions.'
    expect(await rules.extractFacts({ text })).toEqual(await rules.extractFacts({ text }))
  })
})

type Row = [string, string, string, number]

const rows = async (text: string): Promise<Row[]> =>
  (await rules.extractFacts({ text })).triples.map((t) => [t.subject, t.predicate, t.object, t.polarity])

describe('createRulesExtractor: negation, comparison and tests', () => {
  it.each<[string, Row[]]>([
    // negation scope
    ['We stopped hosting the wiki on Confluence.', [['wiki', 'deploys_to', 'Confluence', -1]]],
    ['Priya quit working on Orion.', [['Priya', 'part_of', 'Orion', -1]]],
    ['I never stopped using Emacs.', [['user', 'uses', 'Emacs', 1]]],
    ["The cron job isn't on Lambda anymore.", [['cron job', 'uses', 'Lambda', -1]]],
    ["I haven't touched Perl since college.", [['user', 'uses', 'Perl', -1]]],
    ['I used to prefer Sublime.', [['user', 'prefers', 'Sublime', -1]]],
    ["We don't use any CSS framework.", []],
    ["I don't dislike Jira.", []],
    ['I no longer avoid Redux.', [['user', 'avoids', 'Redux', -1]]],
    ['We avoid vendoring wherever we can.', []],
    // comparisons (preferences with a rival: below)
    [
      'Rather than Yarn, I use pnpm.',
      [
        ['user', 'uses', 'pnpm', 1],
        ['user', 'uses', 'Yarn', -1],
      ],
    ],
    [
      'We use Python more than Go.',
      [
        ['team', 'uses', 'Python', 1],
        ['team', 'uses', 'Go', 1],
      ],
    ],
    ['I prefer Vim to edit files.', [['user', 'prefers', 'Vim', 1]]],
    [
      'We use Mocha to test the CLI instead of Jest.',
      [
        ['team', 'uses', 'Mocha', 1],
        ['CLI', 'tested_by', 'Mocha', 1],
        ['team', 'uses', 'Jest', -1],
      ],
    ],
    ['I prefer short functions rather than long ones.', [['user', 'prefers', 'short functions', 1]]],
    [
      'We moved the backups off S3 onto Backblaze.',
      [
        ['Backblaze', 'replaces', 'S3', 1],
        ['team', 'uses', 'Backblaze', 1],
        ['team', 'uses', 'S3', -1],
      ],
    ],
    // what tests what
    ['Our snapshot tests are run with Jest.', [['team', 'tested_by', 'Jest', 1]]],
    ["The parser's unit tests use Vitest.", [['parser', 'tested_by', 'Vitest', 1]]],
    ['We run the billing tests with pytest.', [['billing', 'tested_by', 'pytest', 1]]],
    ['Mocha runs our API tests.', [['API', 'tested_by', 'Mocha', 1]]],
    ['The smoke tests run on Buildkite.', [['smoke tests', 'runs_on', 'Buildkite', 1]]],
    ['The SDK is linted by ESLint.', [['SDK', 'uses', 'ESLint', 1]]],
  ])('reads the negation, comparison or tests in "%s"', async (text, expected) => {
    expect(await rows(text)).toEqual(expected)
  })

  it.each([
    ['I prefer Deno over Node.', 'user', 'Deno', 'Node'],
    ['We like Litestream way better than pg_dump.', 'team', 'Litestream', 'pg_dump'],
    ['I would far rather write Elm than TypeScript.', 'user', 'Elm', 'TypeScript'],
    ['Our preference is Gitea over GitLab.', 'team', 'Gitea', 'GitLab'],
    ['Between Vue and Svelte, we prefer Svelte.', 'team', 'Svelte', 'Vue'],
  ])('reads "%s" as a preference and its avoided rival', async (text, subject, preferred, rival) => {
    expect(await rows(text)).toEqual([
      [subject, 'prefers', preferred, 1],
      [subject, 'avoids', rival, 1],
    ])
  })

  it('reads a tool the assistant must never use as rejected, and a style request as no fact', async () => {
    expect(await rows('Please never use Axios in the code you write for me.')).toEqual([
      ['user', 'rejects', 'Axios', 1],
    ])
    expect(await rows("Don't use emojis.")).toEqual([])
    expect(await rows('We use not only Sentry but also Grafana.')).toEqual([
      ['team', 'uses', 'Sentry', 1],
      ['team', 'uses', 'Grafana', 1],
    ])
    expect(await rows('He says the API is tested with Jest.')).toEqual([])
  })

  it('gives a comparative preference one preference marker, not a rejection of the rival', async () => {
    const r = await rules.extractFacts({ text: 'I prefer Helix over Vim.' })
    expect(r.markers).toEqual([{ kind: 'preference', statement: 'User prefers Helix over Vim.' }])
  })
})

describe('createRulesExtractor: episodes, procedures, summary', () => {
  it('groups chunks by topic and splits on topic shifts', async () => {
    const r = await rules.extractEpisodes({
      sessionId: 's1',
      chunks: [
        { id: 1, text: 'We are migrating billing from MySQL to Postgres this week.' },
        { id: 2, text: 'The Postgres migration for billing is done, we switched the connection string.' },
        { id: 3, text: 'Anyway, can you help me write a cover letter for a job in Berlin?' },
        { id: 4, text: 'The cover letter should mention my Berlin relocation.' },
      ],
    })
    expect(r.episodes.map((e) => e.chunkIds)).toEqual([
      [1, 2],
      [3, 4],
    ])
    expect(r.episodes[0]?.entities).toEqual(expect.arrayContaining(['Postgres', 'MySQL']))
    expect(r.episodes[0]?.title).toMatch(/^Postgres/)
    expect(r.episodes[0]?.outcome).toContain('switched')
    expect(r.llmCalls).toBe(0)
  })

  it('finds numbered procedures under a how-to heading, in order, with tools', async () => {
    const r = await rules.extractProcedures({
      text: 'user: To deploy to staging:\n1. Run the tests with `pnpm test`\n2. Build the image: docker build -t api .\n3. Run fly deploy --app api-staging\n\nThanks!',
    })
    expect(r.procedures).toEqual([
      expect.objectContaining({
        name: 'Deploy to staging',
        steps: [
          { order: 1, text: 'Run the tests with `pnpm test`', tool: 'pnpm test' },
          { order: 2, text: 'Build the image: docker build -t api', tool: 'docker build -t api' },
          { order: 3, text: 'Run fly deploy --app api-staging', tool: 'fly deploy --app api-staging' },
        ],
      }),
    ])
  })

  it('finds "first … then … finally" sequences introduced by a goal', async () => {
    const r = await rules.extractProcedures({
      text: 'To cut a release, first bump the version with pnpm changeset version, then push the tag, and finally publish to npm.',
    })
    expect(r.procedures[0]?.name).toBe('Cut a release')
    expect(r.procedures[0]?.steps.map((s) => s.text)).toEqual([
      'bump the version with pnpm changeset version',
      'push the tag',
      'publish to npm',
    ])
  })

  it('ignores lists that are not procedures', async () => {
    const r = await rules.extractProcedures({ text: 'Things I like:\n- coffee\n- tea' })
    expect(r.procedures).toEqual([])
  })

  it('summarises a session in one valid sentence, or null when there is nothing', async () => {
    const r = await rules.summarizeSession({
      transcript:
        'user: We moved billing to Postgres.\nassistant: Great.\nuser: The migration is done and we deployed to Fly.io.',
    })
    expect(r.summary).toBe(
      'The session covered Postgres and Fly.io; the migration is done and the team deployed to Fly.io.',
    )
    expect((await rules.summarizeSession({ transcript: 'hi' })).summary).toBeNull()
  })
})
