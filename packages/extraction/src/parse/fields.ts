import * as v from 'valibot'

/** A trimmed, non-empty string of at most `max` characters. */
export const _text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(max))

/** An optional string: null, undefined and blank strings become undefined; over-long strings fail. */
export const _optionalText = (max: number) =>
  v.pipe(
    v.nullish(v.union([v.string(), v.number()])),
    v.transform((x) => (x === null || x === undefined ? undefined : String(x).trim() || undefined)),
    v.check((x) => x === undefined || x.length <= max, `longer than ${max} characters`),
  )

/** A finite number, also accepted as a numeric string; anything else becomes undefined. */
export const _optionalNumber = v.pipe(
  v.optional(v.unknown()),
  v.transform((x): number | undefined => {
    const n = typeof x === 'number' ? x : typeof x === 'string' && x.trim() !== '' ? Number(x) : Number.NaN
    return Number.isFinite(n) ? n : undefined
  }),
)

/** A list of short strings; non-strings and blanks are skipped, duplicates removed, at most `max` kept. */
export const _stringList = (max: number) =>
  v.pipe(
    v.optional(v.nullable(v.array(v.unknown())), []),
    v.transform((xs) => {
      const seen = new Set<string>()
      for (const x of xs ?? []) {
        if (typeof x !== 'string' && typeof x !== 'number') continue
        const s = String(x).trim()
        if (s && s.length <= 120) seen.add(s)
      }
      return [...seen].slice(0, max)
    }),
  )

/** Normalises a label the model may write as "Depends On" or "depends-on" to `depends_on`. */
export function _label(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
}
