import {
  extractedTriple,
  type FakeOpenAIServer,
  type FakeRequest,
  isFactExtractionRequest,
} from '@hymem/extraction/testing'

/** Whether a request (to the fake server, or an `LLMRequest`) is a facts prompt. */
export const isFacts = isFactExtractionRequest
export const isEpisodes = (r: FakeRequest) => r.system.includes('distinct episodes')
export const isProcedures = (r: FakeRequest) => r.system.includes('step-by-step workflows')
export const isSummary = (r: FakeRequest) => r.system.includes('one-sentence summary')

export const EMPTY_FACTS = { triples: [], markers: [], entity_types: [] }

/**
 * Scripted answers of a model that read the billing conversation: facts per chunk (matched on the chunk's
 * words), episodes over every chunk id it was given, one out-of-order procedure and a summary.
 */
export function scriptBillingModel(server: FakeOpenAIServer): void {
  server.script((r) => isFacts(r) && r.user.includes('PostgreSQL'), {
    json: {
      triples: [
        extractedTriple('user', 'uses', 'PostgreSQL'),
        extractedTriple('billing service', 'depends_on', 'Postgres'),
        extractedTriple('payments', 'depends_on', 'Postgres'),
      ],
      markers: [{ kind: 'preference', statement: 'User prefers short answers.' }],
      entity_types: [{ entity: 'PostgreSQL', type: 'database' }],
    },
  })
  server.script((r) => isFacts(r) && r.user.includes('Python 3.12'), {
    json: {
      triples: [
        extractedTriple('billing service', 'requires_version', 'Python', {
          value_text: '3.12',
          value_numeric: 3.12,
          temporal_scope: 'since March',
        }),
        extractedTriple('Postgres', 'depends_on', 'libpq'),
      ],
      markers: [{ kind: 'style', statement: 'User asks for no emojis.' }],
      entity_types: [{ entity: 'Python', type: 'language' }],
    },
  })
  server.script(isFacts, { json: EMPTY_FACTS })
  server.script(isEpisodes, (r) => {
    const ids = [...r.user.matchAll(/\[chunk (\d+)\]/g)].map((m) => Number(m[1]))
    return {
      json: {
        episodes: [
          {
            title: 'Billing service setup',
            summary: 'The user set up the billing service on PostgreSQL.',
            outcome: 'Billing runs on PostgreSQL.',
            entities: ['PostgreSQL', 'billing service'],
            chunk_ids: ids,
          },
        ],
      },
    }
  })
  server.script(isProcedures, {
    json: {
      procedures: [
        {
          name: 'Release billing',
          description: 'How the team releases the billing service.',
          trigger: 'a release',
          steps: [
            { order: 2, text: 'tag the release', tool: 'git' },
            { order: 1, text: 'run the migrations', tool: 'psql' },
            { order: 3, text: 'deploy the image', tool: null },
          ],
          entities: ['billing service'],
        },
      ],
    },
  })
  server.script(isSummary, {
    json: { summary: 'The user moved the billing service to PostgreSQL and settled its release steps.' },
  })
}

export const BILLING_TURNS: readonly (readonly ['user' | 'assistant', string])[] = [
  ['user', 'I use PostgreSQL for the billing service; payments depends on it too. Keep answers short.'],
  ['assistant', 'Understood, PostgreSQL for billing and payments.'],
  ['user', 'ok'],
  ['user', 'The billing service requires Python 3.12 since March, please no emojis.'],
  ['user', 'ok'],
  ['user', 'To release billing: first run the migrations, then tag the release, finally deploy the image.'],
]
