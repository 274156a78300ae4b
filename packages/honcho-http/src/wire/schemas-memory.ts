import * as v from 'valibot'
import { responseFormatProblem } from './response-format'
import { FiltersSchema, IdSchema } from './schemas'

const unit = v.pipe(v.number(), v.minValue(0), v.maxValue(1))
const topK = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))

/** The chat/representation `filters`: only `session_id` (an id, a list, or `{in: [...]}`). */
export const SessionOnlyFiltersSchema = v.nullish(
  v.strictObject({
    session_id: v.optional(
      v.union([
        IdSchema,
        v.pipe(v.array(IdSchema), v.maxLength(1000)),
        v.strictObject({ in: v.pipe(v.array(IdSchema), v.maxLength(1000)) }),
      ]),
    ),
  }),
)

const ScopeSchema = v.nullish(
  v.union([IdSchema, v.pipe(v.array(IdSchema), v.minLength(1), v.maxLength(100))]),
)

export const RepresentationBodySchema = v.looseObject({
  session_id: v.nullish(IdSchema),
  filters: SessionOnlyFiltersSchema,
  scope: ScopeSchema,
  target: v.nullish(IdSchema),
  search_query: v.nullish(v.pipe(v.string(), v.maxLength(10_000))),
  search_top_k: v.nullish(topK),
  search_max_distance: v.nullish(unit),
  include_most_frequent: v.optional(v.boolean(), false),
  max_conclusions: v.optional(topK, 25),
})

export const ChatBodySchema = v.looseObject({
  query: v.pipe(v.string(), v.minLength(1), v.maxLength(10_000)),
  stream: v.optional(v.boolean(), false),
  target: v.nullish(IdSchema),
  session_id: v.nullish(IdSchema),
  filters: SessionOnlyFiltersSchema,
  scope: ScopeSchema,
  reasoning_level: v.optional(v.picklist(['minimal', 'low', 'medium', 'high', 'max']), 'low'),
  response_format: v.nullish(
    v.pipe(
      v.record(v.string(), v.unknown()),
      v.rawCheck(({ dataset, addIssue }) => {
        const problem = dataset.typed ? responseFormatProblem(dataset.value) : null
        if (problem) addIssue({ message: problem })
      }),
    ),
  ),
  include_evidence: v.optional(v.boolean(), false),
})

const boolString = v.pipe(
  v.picklist(['true', 'false', '1', '0']),
  v.transform((s) => s === 'true' || s === '1'),
)
const intString = (min: number, max: number) =>
  v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(min), v.maxValue(max))
const unitString = v.pipe(v.string(), v.toNumber(), v.minValue(0), v.maxValue(1))

export const PeerContextQuerySchema = v.object({
  target: v.optional(IdSchema),
  search_query: v.optional(v.pipe(v.string(), v.maxLength(10_000))),
  search_top_k: v.optional(intString(1, 100)),
  search_max_distance: v.optional(unitString),
  include_most_frequent: v.optional(boolString, 'true'),
  max_conclusions: v.optional(intString(1, 100), '100'),
})

export const SessionContextQuerySchema = v.object({
  tokens: v.optional(intString(0, 100_000)),
  summary: v.optional(boolString, 'true'),
  peer_target: v.optional(IdSchema),
  peer_perspective: v.optional(IdSchema),
  scope: v.optional(IdSchema),
  sessions: v.optional(v.pipe(v.array(IdSchema), v.maxLength(1000))),
  limit_to_session: v.optional(boolString, 'false'),
  search_query: v.optional(v.pipe(v.string(), v.maxLength(10_000))),
  search_top_k: v.optional(intString(1, 100)),
  search_max_distance: v.optional(unitString),
  include_most_frequent: v.optional(boolString, 'false'),
  max_conclusions: v.optional(intString(1, 100), '100'),
})

export const CardQuerySchema = v.object({ target: v.optional(IdSchema) })

export const CardBodySchema = v.looseObject({
  peer_card: v.pipe(v.array(v.pipe(v.string(), v.maxLength(2000))), v.maxLength(200)),
})

/** `observations` is accepted as an alias of `conclusions` (renamed before validation). */
export const ConclusionCreateSchema = v.looseObject({
  conclusions: v.pipe(
    v.array(
      v.looseObject({
        content: v.pipe(v.string(), v.minLength(1), v.maxLength(65_535)),
        observer_id: IdSchema,
        observed_id: IdSchema,
        session_id: v.nullish(IdSchema),
      }),
    ),
    v.minLength(1),
    v.maxLength(100),
  ),
})

export const ConclusionQuerySchema = v.looseObject({
  query: v.pipe(v.string(), v.minLength(1), v.maxLength(10_000)),
  top_k: v.optional(topK, 10),
  distance: v.nullish(unit),
  filters: FiltersSchema,
})
