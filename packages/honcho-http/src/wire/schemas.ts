import * as v from 'valibot'
import { DEFAULT_LIMITS, ID_PATTERN } from '../http/limits'
import { isPlainObject, nestedDeeperThan } from './sanitize'

export const IdSchema = v.pipe(
  v.string(),
  v.regex(ID_PATTERN, 'String should match pattern ^[a-zA-Z0-9_-]+$ and be 1..512 characters'),
)

export const PeerIdSchema = v.pipe(
  IdSchema,
  v.check((id) => !id.startsWith('scope.'), 'Peer ids must not start with "scope."'),
)

/** The size rules metadata and configuration share: at most 100 top-level keys, nested at most 5 levels. */
function withinJsonLimits(name: string) {
  const { metadataKeys, metadataDepth } = DEFAULT_LIMITS
  return v.rawCheck<Record<string, unknown>>(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    if (Object.keys(dataset.value).length > metadataKeys) {
      addIssue({ message: `${name} may have at most ${metadataKeys} keys` })
    } else if (nestedDeeperThan(dataset.value, metadataDepth)) {
      addIssue({ message: `${name} may be nested at most ${metadataDepth} levels deep` })
    }
  })
}

export const MetadataSchema = v.pipe(
  v.custom<Record<string, unknown>>(isPlainObject, 'Input should be a valid dictionary'),
  withinJsonLimits('metadata'),
)

export const FiltersSchema = v.nullish(
  v.custom<Record<string, unknown>>(isPlainObject, 'filters must be an object'),
)

const nullableBool = v.nullish(v.boolean())

export const PeerConfigSchema = v.object({ observe_me: nullableBool })
export const SessionPeerConfigSchema = v.object({ observe_me: nullableBool, observe_others: nullableBool })

/**
 * Workspace and session configuration: known sub-objects keep only their documented keys; the rest is kept
 * within metadata's size rules.
 */
export const ConfigSchema = v.pipe(
  v.looseObject({
    reasoning: v.nullish(
      v.object({
        enabled: nullableBool,
        custom_instructions: v.nullish(v.pipe(v.string(), v.maxLength(8000))),
      }),
    ),
    peer_card: v.nullish(v.object({ use: nullableBool, create: nullableBool })),
    summary: v.nullish(
      v.pipe(
        v.object({
          enabled: nullableBool,
          messages_per_short_summary: v.nullish(v.pipe(v.number(), v.integer(), v.minValue(10))),
          messages_per_long_summary: v.nullish(v.pipe(v.number(), v.integer(), v.minValue(20))),
        }),
        v.check(
          (s) =>
            s.messages_per_short_summary == null ||
            s.messages_per_long_summary == null ||
            s.messages_per_short_summary < s.messages_per_long_summary,
          'messages_per_short_summary must be less than messages_per_long_summary',
        ),
      ),
    ),
    dream: v.nullish(v.object({ enabled: nullableBool })),
  }),
  withinJsonLimits('configuration'),
)

export const MessageConfigSchema = v.object({
  reasoning: v.nullish(v.object({ enabled: nullableBool, custom_instructions: v.nullish(v.string()) })),
})

export const PageQuerySchema = v.object({
  page: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '1'),
  size: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1), v.maxValue(100)), '50'),
  reverse: v.optional(v.picklist(['true', 'false', '1', '0']), 'false'),
})

export type PageQuery = v.InferOutput<typeof PageQuerySchema>

export function pageRequest(q: PageQuery): { page: number; size: number; reverse: boolean } {
  return { page: q.page, size: q.size, reverse: q.reverse === 'true' || q.reverse === '1' }
}

export const ListBodySchema = v.nullish(v.looseObject({ filters: FiltersSchema }))

export const WorkspaceCreateSchema = v.looseObject({
  id: IdSchema,
  metadata: v.nullish(MetadataSchema),
  configuration: v.nullish(ConfigSchema),
})

/** The body of a workspace or session update: metadata and configuration, each optional. */
export const MetadataUpdateSchema = v.looseObject({
  metadata: v.nullish(MetadataSchema),
  configuration: v.nullish(ConfigSchema),
})

export const PeerCreateSchema = v.looseObject({
  id: PeerIdSchema,
  metadata: v.nullish(MetadataSchema),
  configuration: v.nullish(PeerConfigSchema),
})

export const PeerUpdateSchema = v.looseObject({
  metadata: v.nullish(MetadataSchema),
  configuration: v.nullish(PeerConfigSchema),
})

export const SessionPeersMapSchema = v.pipe(
  v.record(PeerIdSchema, v.nullish(SessionPeerConfigSchema)),
  v.check((m) => Object.keys(m).length <= 100, 'at most 100 peers'),
)

export const SessionCreateSchema = v.looseObject({
  id: IdSchema,
  metadata: v.nullish(MetadataSchema),
  configuration: v.nullish(ConfigSchema),
  peers: v.nullish(SessionPeersMapSchema),
  scopes: v.nullish(v.pipe(v.array(IdSchema), v.minLength(1), v.maxLength(100))),
})

export const SearchBodySchema = v.looseObject({
  query: v.pipe(
    v.string(),
    v.check((q) => q.trim().length > 0, 'query must not be blank'),
    v.maxLength(10_000),
  ),
  filters: FiltersSchema,
  scope: v.nullish(IdSchema),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 10),
})
