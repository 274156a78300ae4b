/**
 * Which code points SQLite's FTS5 `unicode61` tokenizer (as bundled with better-sqlite3 12.11.1,
 * SQLite 3.53.2, default categories `L* N* Co`) treats as part of a token. SQLite's Unicode tables are
 * older than the JavaScript engine's, so `\p{L}` is not a faithful substitute: code points unassigned in
 * SQLite's tables (many recent emoji, for example) are token characters there.
 *
 * Encoding: space-separated `gap.length` pairs in base 36, where `gap` counts the code points skipped
 * since the previous range and `length` is `end - start`. `token-chars.test.ts` recomputes this string
 * from a real FTS5 table and prints the new value if SQLite ever changes.
 */
export const _FTS_TOKEN_CHAR_RANGES =
  '1c.9 7.p 6.p 1b.0 7.1 1.0 3.1 1.2 1.m 1.u 1.cp 4.b e.4 7.0 1.0 h.4 1.6 2.0 1.0 9.0 7.5 4.1 1.1 1q.4 1.7 1.4 2.0 1.31 1.3u 8.5r 6.14 2.3 1.0 1j.16 2.a 5.0 m.1 2.16 l.9 4.1 1.2q 1.0 f.1 7.e 2.0 e.0 1.0 1.t r.2i b.1l 9.1 4.r 4.0 9.0 3.0 5.1 f.p 3.1 1.3o r.0 4.1h 3.0 i.0 7.9 4.9 1.f 3.1j 1.0 7.1 2.1 3.8 1.9 2.d 2.5 2.4 3.1j 1.0 5.3 2.1 3.2 1.t 2.2 1.a 3.1j 1.0 8.0 3.0 3.j 2.b 2.e 3.1j 1.0 7.1 2.1 3.7 2.9 2.b 1.g 1.1m 5.2 3.0 4.8 1.q 8.5 3.1l 7.0 3.0 4.6 2.a 2.q 1.1 2.1j 1.0 7.0 3.0 4.6 2.a 2.t 2.1l 7.0 3.0 4.8 1.9 2.k 1.7 2.1x 1.3 6.0 1.0 8.h 3.1n 1.1 7.3 1.6 9.9 2.2c 1.1 6.0 2.a 6.1e v.j c.1c n.4 b.0 10.0 f.0 d.27 k.a 6.5 4.3 3.0 3.1 7.2 4.c c.0 1.9 6.2i 1.gw c.12 a.2t 1.h7 2.g 1.p 2.25 3.z 3.s 5.q 2.t 2.1r z.0 4.0 1.x f.49 1.39 c.3 c.3 1.2 2.2x h.6 2.j y.m 5.1 2.1g a.0 t.1 1.v 7.0 6.29 5.1a h.k z.2 3.t d.1j e.7 4.z k.2 5.1p 2.1r 8.7 p.3 1.3 3.5m 13.k 4.cc 1.0 3.a 3.c 3.c 3.c 2.0 2t.4 6.9 5.a 5.g q.l x.e 2.0 4.0 2.9 1.0 3.4 6.0 1.0 1.0 1.3 1.a 2.3 5.4 4.0 1.1r h0.b 13.o b.28 26.l e8.0 39.t qh.2 a.ay 6.3 3.6 4.0 2.33 1.d 1.2n 27.0 c.1v q.0 2h.b 5y.p c.3 5.2 p.8 7.4 2.4 3.2g 4.2 1.2h 1.43 2.3 a.v 10.r v.a u.7 1.e w.9 13.e 1r.0 74.533 1s.h3j 1j.1i 2.7g 3.2m g.v 1.27 8.7 n.8 2.2u 2.3a 1.2 1.3 1.m 9.9 4.1l 4.7 2.1d h.8 2.f i.5 3.16 a.m d.a 1.v 4.1a r.f 2.20 e.b 1.7 2.d 4.m 3.0 1.1f 1.0 3.1 2.4 2.0 1.r 2.a 7.2 2.6j b.8pd 1kw.5ct 1.9 1.3r g.aj 2.57 2.1 q.5 7.8 z.0 j.0 4.42 1.0 f.9 7.p 6.p b.3d 7.0 7.9 7.73 3.1f 9.1k h.5 c.1f 1a.bk 1.1b 1.w5 1.5i 1.u 1.5c 3.0 2.4 4.13 3.3 1.f 9.11 1.54 7.xr 3.1g m.1d 3.18 i.1p 3.z e.a 4.1n 3.1b e.3 4.yp d.2pj 4.esc 1a.f 4.j1o 6u.9 13.1 51.x 1y.55 2f.o9 1.o 1.u 1.o 1.u 1.o 1.u 1.o 1.u 1.o 1.4kr 2.7h 18.3 2s.b f.1 e.1 f.0 f.1b v.0 1o.3 17.22 t.c 17.4 9.6 2.4t x.e 6.0 1y.2 k.b 11.0 5.k h.e 1r.0 1.0 52.0 4.2 1q.1 4.b o.42 1y.3 b.1b 1y.1l 38.gwi4 1.t 2o.3j 6o.47bj'

/**
 * Combining marks that `remove_diacritics 2` deletes outright: a term made only of these yields no token
 * at all, which would make an FTS5 phrase empty.
 */
export const _FTS_VANISHING_CHARS = [
  0x300, 0x301, 0x302, 0x303, 0x304, 0x306, 0x307, 0x308, 0x309, 0x30a, 0x30b, 0x30c, 0x30f, 0x311, 0x31b,
  0x323, 0x324, 0x325, 0x326, 0x327, 0x328, 0x32d, 0x32e, 0x330, 0x331,
] as const

function decodeRanges(encoded: string): Uint32Array {
  const pairs = encoded.split(' ')
  // bounds[2i] = first code point of range i, bounds[2i+1] = one past its last code point
  const bounds = new Uint32Array(pairs.length * 2)
  let next = 0
  pairs.forEach((pair, i) => {
    const [gap = '', length = ''] = pair.split('.')
    const start = next + Number.parseInt(gap, 36)
    const end = start + Number.parseInt(length, 36) + 1
    bounds[2 * i] = start
    bounds[2 * i + 1] = end
    next = end
  })
  return bounds
}

const BOUNDS = decodeRanges(_FTS_TOKEN_CHAR_RANGES)
const ASCII_TOKEN = new Uint8Array(128)
for (let cp = 0; cp < 128; cp++) ASCII_TOKEN[cp] = /[0-9A-Za-z]/.test(String.fromCharCode(cp)) ? 1 : 0
const VANISHING = new Set<number>(_FTS_VANISHING_CHARS)

/** True when FTS5's `unicode61` tokenizer keeps `codePoint` inside a token. */
export function _isFtsTokenChar(codePoint: number): boolean {
  if (codePoint < 128) return ASCII_TOKEN[codePoint] === 1
  // binary search for the last boundary <= codePoint; an even index means "inside a range"
  let lo = 0
  let hi = BOUNDS.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (BOUNDS[mid]! <= codePoint) lo = mid + 1
    else hi = mid
  }
  return lo % 2 === 1
}

/** True when `remove_diacritics 2` deletes `codePoint` from the token it belongs to. */
export function _isFtsVanishingChar(codePoint: number): boolean {
  return VANISHING.has(codePoint)
}
