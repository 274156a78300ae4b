import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { StoreError } from '../../kernel/errors'
import { createRunLock, DEFAULT_LOCK_STALE_AFTER_MS, isProcessAlive } from './run-lock'

const RUN_LOCK_DDL = `CREATE TABLE run_lock (
  name TEXT PRIMARY KEY, holder TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL,
  acquired_at TEXT NOT NULL, heartbeat_at TEXT NOT NULL)`

const T0 = new Date('2026-01-01T00:00:00.000Z')
const HERE = dirname(fileURLToPath(import.meta.url))
const REPO_ROOT = resolve(HERE, '../../../..')

let dir: string
let file: string
const open: Database.Database[] = []

function connect(): Database.Database {
  const db = new Database(file)
  db.pragma('busy_timeout = 10000')
  open.push(db)
  return db
}

function manualClock(start = T0) {
  let now = start.getTime()
  return { clock: () => new Date(now), advance: (ms: number) => (now += ms) }
}

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', ''])
  expect(child.status).toBe(0)
  return child.pid!
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hymem-'))
  file = join(dir, 'lock.sqlite')
  const db = connect()
  db.pragma('journal_mode = WAL')
  db.exec(RUN_LOCK_DDL)
})
afterEach(() => {
  for (const db of open.splice(0)) db.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('createRunLock', () => {
  it('takes a free lock and records holder, host, pid and times', () => {
    const db = connect()
    const locks = createRunLock({ db, clock: () => T0, host: 'box-a', pid: 4242 })
    const result = locks.acquire('dream:w1', 'run-1')
    expect(result.acquired).toBe(true)
    const row = db.prepare('SELECT * FROM run_lock').all()
    expect(row).toEqual([
      {
        name: 'dream:w1',
        holder: 'run-1',
        host: 'box-a',
        pid: 4242,
        acquired_at: '2026-01-01T00:00:00.000Z',
        heartbeat_at: '2026-01-01T00:00:00.000Z',
      },
    ])
    expect(locks.inspect('dream:w1')).toMatchObject({ holder: 'run-1', host: 'box-a', pid: 4242 })
    expect(locks.inspect('dream:w2')).toBeNull()
  })

  it('lets only one of two connections hold the lock, until it is released', () => {
    const { clock } = manualClock()
    const a = createRunLock({ db: connect(), clock, host: 'box-a', pid: 1001 })
    const b = createRunLock({ db: connect(), clock, host: 'box-b', pid: 2002 })
    const first = a.acquire('dream', 'run-a')
    expect(first.acquired).toBe(true)
    const second = b.acquire('dream', 'run-b')
    expect(second).toEqual({
      acquired: false,
      holder: {
        name: 'dream',
        holder: 'run-a',
        host: 'box-a',
        pid: 1001,
        acquiredAt: T0.toISOString(),
        heartbeatAt: T0.toISOString(),
      },
    })
    expect(b.acquire('other-lock', 'run-b').acquired).toBe(true)
    if (!first.acquired) throw new Error('unreachable')
    expect(first.lock.release()).toBe(true)
    expect(b.acquire('dream', 'run-b').acquired).toBe(true)
    expect(first.lock.release()).toBe(false)
    expect(a.inspect('dream')?.holder).toBe('run-b')
  })

  it('re-acquiring by the same holder succeeds and refreshes the heartbeat only', () => {
    const { clock, advance } = manualClock()
    const locks = createRunLock({ db: connect(), clock, host: 'box-a', pid: 1 })
    locks.acquire('dream', 'run-1')
    advance(60_000)
    const again = locks.acquire('dream', 'run-1')
    expect(again.acquired && again.lock).toMatchObject({
      acquiredAt: T0.toISOString(),
      heartbeatAt: new Date(T0.getTime() + 60_000).toISOString(),
      tookOver: null,
    })
  })

  it('takes over a holder whose heartbeat is more than 5 minutes old, not one at exactly 5 minutes', () => {
    const { clock, advance } = manualClock()
    const a = createRunLock({ db: connect(), clock, host: 'box-a', pid: 1001 })
    const b = createRunLock({ db: connect(), clock, host: 'box-b', pid: 2002 })
    const held = a.acquire('dream', 'run-a')
    advance(DEFAULT_LOCK_STALE_AFTER_MS)
    expect(b.acquire('dream', 'run-b').acquired).toBe(false)
    advance(1)
    const taken = b.acquire('dream', 'run-b')
    expect(taken.acquired).toBe(true)
    if (!taken.acquired || !held.acquired) throw new Error('unreachable')
    expect(taken.lock.tookOver).toEqual({
      reason: 'stale',
      previous: expect.objectContaining({ holder: 'run-a', host: 'box-a', pid: 1001 }),
    })
    expect(held.lock.heartbeat()).toBe(false)
    expect(held.lock.release()).toBe(false)
    expect(b.inspect('dream')?.holder).toBe('run-b')
  })

  it('keeps a lock whose holder heart-beats, however long the run', () => {
    const { clock, advance } = manualClock()
    const a = createRunLock({ db: connect(), clock, host: 'box-a', pid: 1001 })
    const b = createRunLock({ db: connect(), clock, host: 'box-b', pid: 2002 })
    const held = a.acquire('dream', 'run-a')
    if (!held.acquired) throw new Error('unreachable')
    for (let minute = 0; minute < 30; minute += 4) {
      advance(4 * 60_000)
      expect(held.lock.heartbeat()).toBe(true)
      expect(b.acquire('dream', 'run-b').acquired).toBe(false)
    }
    expect(a.inspect('dream')?.heartbeatAt).toBe(new Date(T0.getTime() + 32 * 60_000).toISOString())
  })

  it('honours a custom staleAfterMs and rejects a nonsensical one', () => {
    const { clock, advance } = manualClock()
    const a = createRunLock({ db: connect(), clock, host: 'box-a', staleAfterMs: 1000 })
    const b = createRunLock({ db: connect(), clock, host: 'box-b', staleAfterMs: 1000 })
    a.acquire('dream', 'run-a')
    advance(1001)
    expect(b.acquire('dream', 'run-b').acquired).toBe(true)
    expect(() => createRunLock({ db: connect(), staleAfterMs: 0 })).toThrow(StoreError)
  })

  it('takes over at once from a holder on this host whose process has exited', () => {
    const { clock } = manualClock()
    const pid = deadPid()
    const crashed = createRunLock({ db: connect(), clock, pid })
    crashed.acquire('dream', 'crashed-run')
    const next = createRunLock({ db: connect(), clock })
    const result = next.acquire('dream', 'next-run')
    expect(result.acquired).toBe(true)
    if (!result.acquired) throw new Error('unreachable')
    expect(result.lock).toMatchObject({ holder: 'next-run', host: hostname(), pid: process.pid })
    expect(result.lock.tookOver).toEqual({
      reason: 'dead-process',
      previous: expect.objectContaining({ holder: 'crashed-run', host: hostname(), pid }),
    })
  })

  it('does not take over from a live process on this host, nor judge pids on another host', () => {
    const { clock } = manualClock()
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'])
    try {
      createRunLock({ db: connect(), clock, pid: child.pid! }).acquire('live', 'live-run')
      expect(createRunLock({ db: connect(), clock }).acquire('live', 'me').acquired).toBe(false)
    } finally {
      child.kill('SIGKILL')
    }
    createRunLock({ db: connect(), clock, host: 'elsewhere', pid: deadPid() }).acquire('remote', 'remote-run')
    expect(createRunLock({ db: connect(), clock }).acquire('remote', 'me').acquired).toBe(false)
  })

  it('uses the injected liveness check', () => {
    const { clock } = manualClock()
    const checked: number[] = []
    createRunLock({ db: connect(), clock, host: 'h', pid: 77 }).acquire('dream', 'run-77')
    const locks = createRunLock({
      db: connect(),
      clock,
      host: 'h',
      pid: 88,
      isProcessAlive: (pid) => {
        checked.push(pid)
        return false
      },
    })
    expect(locks.acquire('dream', 'run-88').acquired).toBe(true)
    expect(checked).toEqual([77])
  })

  it('treats an unreadable heartbeat as stale', () => {
    const db = connect()
    db.prepare("INSERT INTO run_lock VALUES ('dream', 'old', 'elsewhere', 5, 'garbage', 'garbage')").run()
    const result = createRunLock({ db, clock: () => T0 }).acquire('dream', 'new')
    expect(result.acquired && result.lock.tookOver?.reason).toBe('stale')
  })

  it('rejects empty names and holder ids with a clear error', () => {
    const locks = createRunLock({ db: connect() })
    expect(() => locks.acquire('', 'run')).toThrowErrorMatchingInlineSnapshot(
      `[StoreError: The run lock name must be a non-empty string.]`,
    )
    expect(() => locks.acquire('dream', '  ')).toThrowErrorMatchingInlineSnapshot(
      `[StoreError: The run lock holder id must be a non-empty string.]`,
    )
  })

  it('rolls back and leaves the connection usable when the table is missing', () => {
    const db = new Database(join(dir, 'empty.sqlite'))
    open.push(db)
    const locks = createRunLock({ db })
    expect(() => locks.acquire('dream', 'run')).toThrow(/no such table: run_lock/)
    expect(db.inTransaction).toBe(false)
    db.exec(RUN_LOCK_DDL)
    expect(locks.acquire('dream', 'run').acquired).toBe(true)
  })

  it('excludes competing processes: no overlapping holds and no lost updates', async () => {
    const db = connect()
    db.exec(`CREATE TABLE counter (n INTEGER NOT NULL); INSERT INTO counter VALUES (0);
      CREATE TABLE holds (id INTEGER PRIMARY KEY AUTOINCREMENT, holder TEXT NOT NULL, phase TEXT NOT NULL);
      CREATE TABLE results (holder TEXT NOT NULL, wins INTEGER NOT NULL);
      CREATE TABLE ready (holder TEXT NOT NULL);`)
    const fixture = join(HERE, 'lock-contender.fixture.ts')
    const contenders = ['p1', 'p2', 'p3'].map(
      (holder) =>
        new Promise<number | null>((done, fail) => {
          const child = spawn(process.execPath, ['--import', 'tsx', fixture, file, holder, '60'], {
            cwd: REPO_ROOT,
            stdio: ['ignore', 'ignore', 'inherit'],
          })
          child.on('error', fail)
          child.on('exit', done)
        }),
    )
    expect(await Promise.all(contenders)).toEqual([0, 0, 0])
    const results = db.prepare('SELECT holder, wins FROM results ORDER BY holder').all() as {
      holder: string
      wins: number
    }[]
    expect(results.map((r) => r.holder)).toEqual(['p1', 'p2', 'p3'])
    const totalWins = results.reduce((sum, r) => sum + r.wins, 0)
    expect(totalWins).toBeGreaterThan(0)
    expect(totalWins).toBeLessThan(3 * 60) // some attempts found the lock taken
    expect(db.prepare('SELECT n FROM counter').pluck().get()).toBe(totalWins)
    const holds = db.prepare('SELECT holder, phase FROM holds ORDER BY id').all() as {
      holder: string
      phase: string
    }[]
    expect(holds).toHaveLength(totalWins * 2)
    holds.forEach((hold, i) => {
      expect(hold.phase).toBe(i % 2 === 0 ? 'enter' : 'exit')
      if (i % 2 === 1) expect(hold.holder).toBe(holds[i - 1]!.holder)
    })
    expect(db.prepare('SELECT count(*) FROM run_lock').pluck().get()).toBe(0)
  })
})

describe('isProcessAlive', () => {
  it('knows this process is alive and an exited one is not', () => {
    expect(isProcessAlive(process.pid)).toBe(true)
    expect(isProcessAlive(deadPid())).toBe(false)
  })

  it('never signals a process group or an invalid pid', () => {
    for (const pid of [0, -1, Number.NaN, 1.5, Number.MAX_SAFE_INTEGER + 2])
      expect(isProcessAlive(pid)).toBe(false)
  })
})
