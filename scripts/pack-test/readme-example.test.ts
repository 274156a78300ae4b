import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { libraryExample } from './readme-example'

describe('libraryExample', () => {
  it("takes the README's library example as written", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    const example = libraryExample(readme)
    expect(example).toMatch(/^import \{ createHyMem \} from 'hymem'\n/)
    expect(example).toContain('await memory.close()')
  })

  it('says what is missing', () => {
    expect(() => libraryExample('# HyMem\n')).toThrow('README.md has no "## Use it as a library" section')
    expect(() => libraryExample('# HyMem\n\n## Use it as a library\n\nSoon.\n')).toThrow('has no ```ts block')
  })
})
