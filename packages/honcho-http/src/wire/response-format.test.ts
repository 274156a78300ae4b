import { describe, expect, it } from 'vitest'
import { responseFormatProblem } from './response-format'

describe('responseFormatProblem (Honcho’s JSON Schema subset)', () => {
  it('accepts object roots with primitives, arrays, enums, unions and $ref into $defs', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        summary: { type: 'string', maxLength: 200 },
        tags: { type: 'array', items: { type: 'string' } },
        mood: { enum: ['good', 'bad', null] },
        score: { type: ['number', 'null'] },
        owner: { $ref: '#/$defs/Person' },
        either: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      },
      required: ['summary'],
      $defs: { Person: { type: 'object', properties: { name: { type: 'string' } } } },
    }
    expect(responseFormatProblem(schema)).toBeNull()
    expect(responseFormatProblem({ properties: {} })).toBeNull()
    expect(
      responseFormatProblem({ $ref: '#/definitions/Root', definitions: { Root: { type: 'object' } } }),
    ).toBeNull()
  })

  it('names what it refuses and where', () => {
    const cases: [unknown, string][] = [
      [{ type: 'string' }, "root schema must have type 'object' at root"],
      [
        { $ref: '#/$defs/S', $defs: { S: { type: 'string' } } },
        "root schema must have type 'object' at root",
      ],
      [{ type: 'object', properties: { a: { allOf: [] } } }, "unsupported construct 'allOf' at properties.a"],
      [{ type: 'object', properties: { a: { type: 'date' } } }, "unsupported type 'date' at properties.a"],
      [{ type: 'object', properties: { a: true } }, 'boolean schemas are not supported at properties.a'],
      [
        { type: 'object', properties: { a: { type: 'array', items: 3 } } },
        'schema must be an object at properties.a.items',
      ],
      [{ type: 'object', required: [1] }, "'required' must be an array of strings at root"],
      [
        { type: 'object', additionalProperties: { type: 'string' } },
        'additionalProperties with a schema is not supported at root',
      ],
      [
        {
          type: 'object',
          properties: { a: { $ref: '#/$defs/A' } },
          $defs: { A: { type: 'object', properties: { b: { $ref: '#/$defs/A' } } } },
        },
        'recursive $ref is not supported (cycle: A -> A) at properties.a.properties.b',
      ],
      [
        { type: 'object', properties: { a: { $ref: 'https://example.com/x' } } },
        "unsupported $ref 'https://example.com/x': only '#/$defs/<name>' or '#/definitions/<name>' references are supported at properties.a",
      ],
      [
        { type: 'object', properties: { a: { enum: [{}] } } },
        'enum values must be strings, integers, booleans, or null at properties.a',
      ],
    ]
    for (const [schema, message] of cases) {
      expect(responseFormatProblem(schema)).toBe(`Invalid response_format: ${message}`)
    }
  })

  it('refuses schemas past the depth and node caps without walking them', () => {
    let deep: Record<string, unknown> = { type: 'string' }
    for (let i = 0; i < 30; i++) deep = { type: 'object', properties: { x: deep } }
    expect(responseFormatProblem(deep)).toBe(
      'Invalid response_format: schema nesting exceeds the maximum depth of 20',
    )
    const wide = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`p${i}`, { type: 'string' }])),
    }
    expect(responseFormatProblem(wide)).toBe(
      'Invalid response_format: schema exceeds the maximum of 500 nodes',
    )
  })
})
