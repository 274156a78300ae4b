/** One turn of the demo conversation. */
export interface DemoTurn {
  readonly role: 'user' | 'assistant'
  readonly content: string
}

/** A demo session: an id, how many days before "now" it happened, and its turns. */
export interface DemoSession {
  readonly id: string
  readonly daysAgo: number
  readonly turns: readonly DemoTurn[]
}

/**
 * Two short sessions of a developer (Maya) and her assistant: her stack, her preferences and the deploy
 * procedure. Written for the rule-based extractor, so the demo works with no key and no network.
 */
export const DEMO_SESSIONS: readonly DemoSession[] = [
  {
    id: 'demo-onboarding',
    daysAgo: 8,
    turns: [
      {
        role: 'user',
        content: "Hi! I'm Maya, I work on Ledgerly, our invoicing app. Let me give you some context.",
      },
      { role: 'assistant', content: 'Happy to help, Maya. What does the Ledgerly stack look like?' },
      {
        role: 'user',
        content:
          'The Ledgerly API is written in TypeScript. The API runs on Node.js 20. We use Fastify for HTTP.',
      },
      {
        role: 'user',
        content: 'Last year we switched from MySQL to PostgreSQL. The job queue depends on Redis.',
      },
      {
        role: 'assistant',
        content: 'Got it: TypeScript on Node.js 20, Fastify, PostgreSQL and Redis. Any ORM?',
      },
      {
        role: 'user',
        content: 'We use Drizzle for schema migrations. I avoid Prisma. It hides too much SQL.',
      },
      { role: 'user', content: 'We use Vitest to test the API, and Playwright to test the web app.' },
      {
        role: 'assistant',
        content: 'Noted. Do you have style preferences I should follow when I write code?',
      },
      {
        role: 'user',
        content: 'I prefer small pure functions and explicit error types. I prefer pnpm over npm.',
      },
      { role: 'user', content: "And please don't use default exports. I hate default exports." },
      { role: 'assistant', content: 'Understood: named exports only, small functions, typed errors, pnpm.' },
    ],
  },
  {
    id: 'demo-release-day',
    daysAgo: 1,
    turns: [
      { role: 'user', content: 'Release day! Can you remind me how we ship Ledgerly?' },
      {
        role: 'assistant',
        content: 'Sure. Tell me the steps you follow and I will keep them for next time.',
      },
      {
        role: 'user',
        content: [
          'To deploy Ledgerly:',
          '1. Run pnpm test and pnpm build.',
          '2. Tag the release with git tag and push the tag.',
          '3. Wait for GitHub Actions to build the Docker image.',
          '4. Run fly deploy to put the API on Fly.io.',
          '5. Run drizzle-kit migrate against the production database.',
        ].join('\n'),
      },
      {
        role: 'assistant',
        content: 'Five steps: test and build, tag, image build in CI, fly deploy, migrations.',
      },
      { role: 'user', content: 'Right. We deploy the API to Fly.io and the web app is hosted on Vercel.' },
      {
        role: 'user',
        content: 'The API connects to Sentry for error tracking. We use Grafana Loki for logs.',
      },
      { role: 'assistant', content: 'What should I do if a deploy goes wrong?' },
      {
        role: 'user',
        content:
          'Roll back with fly releases rollback, then check Sentry. Never run migrations by hand in production.',
      },
      { role: 'assistant', content: "Got it. I'll remember the rollback path too." },
    ],
  },
]

/** The questions the demo asks after dreaming. */
export const DEMO_QUESTIONS: readonly string[] = [
  'Which database replaced MySQL?',
  'How do I deploy Ledgerly?',
  'What are my coding preferences?',
  'What does the API run on?',
]
