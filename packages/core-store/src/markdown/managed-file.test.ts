import { spawn } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { StoreError } from '../kernel/errors'
import { readManagedFile, readOutsideSection, readSection, writeSection } from './managed-file'

const START = (name: string) => `<!-- HyMem:auto:${name}:start -->`
const END = (name: string) => `<!-- HyMem:auto:${name}:end -->`

const HERE = dirname(fileURLToPath(import.meta.url))
const REPO_ROOT = resolve(HERE, '../../../..')

let dir: string
let file: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hymem-'))
  file = join(dir, 'USER.md')
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

const text = () => readFileSync(file, 'utf8')

async function errorOf(promise: Promise<unknown>): Promise<StoreError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(StoreError)
  return error as StoreError
}

describe('writeSection / readSection', () => {
  it('creates the file and its parent directories when missing', async () => {
    const nested = join(dir, 'workspaces', 'w1', 'MEMORY.md')
    await writeSection(nested, 'insights', '- uv is a shared dependency')
    expect(readFileSync(nested, 'utf8')).toBe(
      `${START('insights')}\n- uv is a shared dependency\n${END('insights')}\n`,
    )
    expect(await readSection(nested, 'insights')).toBe('- uv is a shared dependency')
  })

  it.each([
    ['', 'empty'],
    ['one line', 'one line'],
    ['a\nb\n\nc', 'several lines'],
    ['ends with a newline\n', 'trailing newline'],
    ['\n\nleading blank lines', 'leading blank lines'],
    ['\n', 'a lone newline'],
    ['ünïcødé 東京 😀', 'non-ASCII'],
  ])('round-trips a body exactly: %j (%s)', async (body) => {
    await writeSection(file, 'profile', body)
    expect(await readSection(file, 'profile')).toBe(body)
    await writeSection(file, 'profile', `${body}x`)
    expect(await readSection(file, 'profile')).toBe(`${body}x`)
  })

  it('replaces only the section body and keeps every byte of human text around it', async () => {
    const before = Buffer.concat([
      Buffer.from('\uFEFF# About me\n\nHand-written notes, keep them.\n'),
      Buffer.from([0xff, 0xfe, 0x80, 0x0a]), // not valid UTF-8: must survive byte for byte
      Buffer.from(
        `${START('profile')}\nold line 1\nold line 2\n${END('profile')}\n\n## More human text  \n\t(tabs)`,
      ),
    ])
    writeFileSync(file, before)
    await writeSection(file, 'profile', '- new entry')
    const after = readFileSync(file)
    const expected = Buffer.from(
      before.toString('latin1').replace('old line 1\nold line 2', '- new entry'),
      'latin1',
    )
    expect(after.equals(expected)).toBe(true)
  })

  it('appends a missing section after a blank line, whatever the file ends with', async () => {
    writeFileSync(file, '# Notes\nno trailing newline')
    await writeSection(file, 'a', 'A')
    expect(text()).toBe(`# Notes\nno trailing newline\n\n${START('a')}\nA\n${END('a')}\n`)
    await writeSection(file, 'b', 'B')
    expect(text()).toBe(
      `# Notes\nno trailing newline\n\n${START('a')}\nA\n${END('a')}\n\n${START('b')}\nB\n${END('b')}\n`,
    )
  })

  it('keeps sections independent of each other', async () => {
    await writeSection(file, 'profile', 'P1')
    await writeSection(file, 'insights', 'I1')
    await writeSection(file, 'profile', 'P2')
    expect(await readSection(file, 'profile')).toBe('P2')
    expect(await readSection(file, 'insights')).toBe('I1')
    expect(await readSection(file, 'missing')).toBeNull()
  })

  it('keeps a CRLF file CRLF and reads bodies back with \\n', async () => {
    writeFileSync(file, `# Title\r\n\r\n${START('profile')}\r\nold\r\n${END('profile')}\r\nafter\r\n`)
    await writeSection(file, 'profile', 'line 1\nline 2')
    expect(text()).toBe(
      `# Title\r\n\r\n${START('profile')}\r\nline 1\r\nline 2\r\n${END('profile')}\r\nafter\r\n`,
    )
    expect(await readSection(file, 'profile')).toBe('line 1\nline 2')
    await writeSection(file, 'other', 'x\r\ny')
    expect(text().endsWith(`after\r\n\r\n${START('other')}\r\nx\r\ny\r\n${END('other')}\r\n`)).toBe(true)
  })

  it('accepts markers a human re-spaced', async () => {
    writeFileSync(
      file,
      'top\n<!--HyMem:auto:profile:start-->\nold\n<!--   HyMem:auto:profile:end\t-->\nbottom\n',
    )
    expect(await readSection(file, 'profile')).toBe('old')
    await writeSection(file, 'profile', 'new')
    expect(text()).toBe(
      'top\n<!--HyMem:auto:profile:start-->\nnew\n<!--   HyMem:auto:profile:end\t-->\nbottom\n',
    )
  })

  it('does not confuse a section with another whose name shares a prefix', async () => {
    await writeSection(file, 'profile.v2', 'two')
    await writeSection(file, 'profile', 'one')
    expect(await readSection(file, 'profile')).toBe('one')
    expect(await readSection(file, 'profile.v2')).toBe('two')
  })

  it('refuses a start marker with no end marker instead of eating the rest of the file', async () => {
    const damaged = `# Me\n${START('profile')}\nold\n\nHuman text that must not be lost.\n`
    writeFileSync(file, damaged)
    const error = await errorOf(writeSection(file, 'profile', 'new'))
    expect(error.code).toBe('INVALID_INPUT')
    expect(error.message.replace(dir, '<dir>')).toMatchInlineSnapshot(
      `"<dir>/USER.md: managed section "profile" has a start marker but no end marker. Fix the HyMem:auto:profile markers by hand; HyMem will not guess where the section ends."`,
    )
    expect(text()).toBe(damaged)
    expect((await errorOf(readSection(file, 'profile'))).code).toBe('INVALID_INPUT')
  })

  it.each([
    [`${END('p')}\n`, 'has an end marker but no start marker'],
    [`${START('p')}\n${START('p')}\n${END('p')}\n`, 'appears more than once'],
    [`${START('p')}\n${END('p')}\n${START('p')}\n${END('p')}\n`, 'appears more than once'],
    [`${END('p')}\n${START('p')}\n`, 'has its end marker before its start marker'],
  ])('refuses other unpaired markers: %j', async (content, problem) => {
    writeFileSync(file, content)
    const error = await errorOf(writeSection(file, 'p', 'x'))
    expect(error.message).toContain(problem)
    expect(text()).toBe(content)
  })

  it('rejects bad section names and bodies that contain markers', async () => {
    for (const name of ['', 'has space', 'a:b', 'x-->', '-lead', 'n'.repeat(65)]) {
      expect((await errorOf(writeSection(file, name, 'x'))).code).toBe('INVALID_INPUT')
    }
    const error = await errorOf(writeSection(file, 'p', `sneaky\n${END('p')}\ntail`))
    expect(error.message).toMatchInlineSnapshot(
      `"The body of Markdown section "p" contains a "<!-- HyMem:auto:" marker, which would corrupt the file."`,
    )
    expect((await errorOf(writeSection(file, 'p', undefined as unknown as string))).code).toBe(
      'INVALID_INPUT',
    )
    expect(existsSync(file)).toBe(false)
  })

  it('keeps the permission bits of an existing file', async () => {
    writeFileSync(file, 'private\n')
    chmodSync(file, 0o600)
    await writeSection(file, 'p', 'x')
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it('writes through a symlink instead of replacing it', async () => {
    const target = join(dir, 'dotfiles', 'USER.md')
    mkdirSync(join(dir, 'dotfiles'))
    writeFileSync(target, '# mine\n')
    symlinkSync(target, file)
    await writeSection(file, 'p', 'x')
    expect(lstatSync(file).isSymbolicLink()).toBe(true)
    expect(readFileSync(target, 'utf8')).toBe(`# mine\n\n${START('p')}\nx\n${END('p')}\n`)
  })

  it('reports an unwritable location as NOT_WRITABLE and leaves no temporary file', async () => {
    writeFileSync(join(dir, 'not-a-dir'), '')
    const error = await errorOf(writeSection(join(dir, 'not-a-dir', 'USER.md'), 'p', 'x'))
    expect(error.code).toBe('NOT_WRITABLE')
    expect(error.cause).toBeInstanceOf(Error)
    expect(readdirSync(dir)).toEqual(['not-a-dir'])
  })

  it('never leaves a torn file under concurrent writers: last write wins', async () => {
    writeFileSync(file, '# Human header\n')
    const bodies = Array.from({ length: 24 }, (_, i) => `writer ${i}\n${String(i).repeat(40_000)}`)
    let reading = true
    const seen = new Set<string>()
    const reader = (async () => {
      while (reading) {
        const body = await readSection(file, 'profile')
        if (body !== null) seen.add(body)
        expect(readFileSync(file, 'utf8').startsWith('# Human header\n')).toBe(true)
      }
    })()
    await Promise.all(bodies.map((body) => writeSection(file, 'profile', body)))
    reading = false
    await reader
    const final = await readSection(file, 'profile')
    expect(bodies).toContain(final)
    for (const body of seen) expect(bodies).toContain(body)
    expect(text()).toBe(`# Human header\n\n${START('profile')}\n${final}\n${END('profile')}\n`)
    expect(readdirSync(dir)).toEqual(['USER.md'])
  })
})

describe('writeSection across processes', () => {
  it('keeps the file whole while several processes rewrite the same section', async () => {
    writeFileSync(file, '# Human header\n\nkept text\n')
    const fixture = join(HERE, 'section-writer.fixture.ts')
    const writers = ['a', 'b', 'c'].map(
      (writer) =>
        new Promise<number | null>((done, fail) => {
          const child = spawn(process.execPath, ['--import', 'tsx', fixture, file, writer, '25'], {
            cwd: REPO_ROOT,
            stdio: ['ignore', 'ignore', 'inherit'],
          })
          child.on('error', fail)
          child.on('exit', done)
        }),
    )
    let running = true
    const finished = Promise.all(writers).finally(() => {
      running = false
    })
    const bodyShape = /^([abc]) round (\d+)\n\1{50000}$/
    let reads = 0
    while (running) {
      const body = await readSection(file, 'profile')
      if (body !== null) expect(body).toMatch(bodyShape)
      expect(readFileSync(file, 'utf8').startsWith('# Human header\n\nkept text\n')).toBe(true)
      reads++
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
    expect(await finished).toEqual([0, 0, 0])
    expect(reads).toBeGreaterThan(0)
    expect(await readSection(file, 'profile')).toMatch(/^[abc] round 24\n/)
    expect(readdirSync(dir)).toEqual(['USER.md'])
  })
})

describe('readManagedFile', () => {
  it('returns the whole text, or an empty string when the file is missing', async () => {
    expect(await readManagedFile(file)).toBe('')
    await writeSection(file, 'p', 'body')
    expect(await readManagedFile(file)).toBe(`${START('p')}\nbody\n${END('p')}\n`)
  })

  it('turns other read failures into a StoreError with the cause', async () => {
    mkdirSync(join(dir, 'a-directory'))
    const error = await errorOf(readManagedFile(join(dir, 'a-directory')))
    expect(error.code).toBe('INVALID_INPUT')
    expect((error.cause as NodeJS.ErrnoException).code).toBe('EISDIR')
  })
})

describe('readOutsideSection', () => {
  it('returns the text around a section, the whole text without one, and an empty string without a file', async () => {
    expect(await readOutsideSection(file, 'profile')).toBe('')
    writeFileSync(
      file,
      `# User\n\nHand-written.\n\n${START('profile')}\n- [fact] x\n${END('profile')}\nAfter.\n`,
    )
    expect(await readOutsideSection(file, 'profile')).toBe('# User\n\nHand-written.\n\n\nAfter.\n')
    expect(await readOutsideSection(file, 'insights')).toBe(text())
  })

  it('reads a file whose markers do not pair up as it is, and still rejects a bad section name', async () => {
    writeFileSync(file, `Text\n${START('profile')}\n- [fact] x\n`)
    expect(await readOutsideSection(file, 'profile')).toBe(text())
    expect((await errorOf(readOutsideSection(file, 'no spaces'))).code).toBe('INVALID_INPUT')
  })
})
