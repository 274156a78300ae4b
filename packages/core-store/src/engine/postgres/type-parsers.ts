import pg from 'pg'

const INT8 = 20
const INT8_ARRAY = 1016
const NUMERIC = 1700
const JSON_OID = 114
const JSONB = 3802

const asText = (value: string): string => value
const int8Array = pg.types.getTypeParser(INT8_ARRAY as Parameters<typeof pg.types.getTypeParser>[0]) as (
  value: string,
) => string[]

/**
 * Makes PostgreSQL values come back in the shapes repositories get from SQLite: `bigint` and `numeric` as
 * numbers (ids and counts stay far below 2^53), JSON as its text (repositories parse it, as on SQLite).
 */
export const HYMEM_TYPE_PARSERS: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => {
    switch (oid) {
      case INT8:
        return Number
      case NUMERIC:
        return Number
      case INT8_ARRAY:
        return (value: string) => int8Array(value).map(Number)
      case JSON_OID:
      case JSONB:
        return asText
      default:
        return pg.types.getTypeParser(oid, format as 'text')
    }
  }) as pg.CustomTypesConfig['getTypeParser'],
}
