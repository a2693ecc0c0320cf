// ORT_ISA=avx2's library patch on made-up bytes: each site found once and
// turned to its `after` form, anything else refused (no ORT needed).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { kSites, findAll, withoutAvx512, patchedIsa } = require('../ort_isa');

const [mlas, cpuidInfo] = kSites;
const filler = (n, value = 0x90) => Buffer.alloc(n, value);
/** A site's `before` with its wildcards filled by `jump`'s bytes. */
const concrete = (site, jump = [0x9e, 0x11, 0x22, 0x33]) => {
  let k = 0;
  return Buffer.from(site.before.map((b) => (b === null ? jump[k++] : b)));
};

test('findAll matches wildcards and every occurrence', () => {
  const bytes = Buffer.concat([filler(5), concrete(mlas), filler(3),
                               concrete(mlas, [1, 2, 3, 4])]);
  assert.deepEqual(findAll(bytes, mlas.before), [5, 5 + 11 + 3]);
  assert.deepEqual(findAll(bytes, [0x0f, 0x84, 0x9e]), [10]);
  assert.deepEqual(findAll(filler(4), [0x90, 0x90, 0x90, 0x90, 0x90]), []);
});

test('withoutAvx512 rewrites both sites and nothing else', () => {
  const bytes = Buffer.concat([filler(7), concrete(mlas), filler(9, 0xcc),
                               concrete(cpuidInfo), filler(2)]);
  const out = withoutAvx512(bytes);
  assert.equal(out.length, bytes.length);
  // The je (0f 84 + offset) becomes one 6-byte nop; the mask 0xe6 becomes 6.
  assert.deepEqual([...out.subarray(7, 18)], mlas.after);
  assert.deepEqual([...out.subarray(27, 45)], cpuidInfo.after);
  const changed = [...bytes.keys()].filter((i) => bytes[i] !== out[i]);
  assert.deepEqual(changed, [12, 13, 14, 15, 16, 17, 30]);
  assert.equal(patchedIsa(bytes), 'native');
  assert.equal(patchedIsa(out), 'avx2');
});

test('withoutAvx512 refuses a library it does not know', () => {
  const both = Buffer.concat([concrete(mlas), concrete(cpuidInfo)]);
  assert.throws(() => withoutAvx512(concrete(cpuidInfo)),
    /MLAS's AVX-512 kernel selection: expected its instructions once, found them 0 times/);
  assert.throws(() => withoutAvx512(Buffer.concat([both, concrete(mlas)])),
    /found them 2 times/);
  assert.throws(() => withoutAvx512(withoutAvx512(both)), /already patched/);
  // A library with only one site patched is neither forced nor native.
  const half = withoutAvx512(both, [mlas]);
  assert.equal(patchedIsa(half), 'native');
});
