#!/usr/bin/env node
// ONNX Runtime as it runs on a CPU without AVX-512, on one that has it: the
// benchmark's AVX2 figure compares geflow's AVX2 kernels with ORT's, and ORT has no
// switch for that (MLAS reads CPUID and XCR0 itself). `ORT_ISA=avx2 make
// bench-ort` loads a copy of libonnxruntime.so.1 in which the two places
// that decide "this CPU and OS have AVX-512" decide "no":
//
//  - MLAS's platform setup: `if (avx512f && (xcr0 & 0xE0) == 0xE0)` chooses
//    the AVX-512 GEMM, conv and NCHWc16 kernels; its conditional jump into
//    that branch becomes a no-op, so MLAS keeps the AVX2+FMA kernels it picked
//    just before (as on an AVX2 machine);
//  - ORT's CPUIDInfo: `xcr0 & 0xE6` becomes `xcr0 & 0x06`, so it reports no
//    OS support for ZMM state and every HasAVX512* query answers false.
//
// Each site is found by its instruction bytes, which must occur exactly once;
// another ORT build that moved them is an error, not a silent AVX-512 run.
// The library in node_modules is never touched.
//
//   node ort_isa.js OUT_DIR   writes OUT_DIR/libonnxruntime.so.1
'use strict';
const fs = require('fs');
const path = require('path');

/**
 * The sites, as x86-64 bytes before and after. In MLAS: `not %rax; test
 * $0xe0,%al; je <avx512 branch>` (the jump's 4-byte offset is whatever the
 * build has: `null` bytes match anything and are overwritten with the nop).
 * In CPUIDInfo: `and $0xe6,%r14d; xor %esi,%esi; xor %ecx,%ecx; cmp
 * $0xe6,%r14d`.
 */
const kSites = [
  {
    name: "MLAS's AVX-512 kernel selection",
    before: [0x48, 0xf7, 0xd0, 0xa8, 0xe0, 0x0f, 0x84, null, null, null, null],
    // The 6-byte je becomes the 6-byte nop `nopw 0x0(%rax,%rax,1)`.
    after: [0x48, 0xf7, 0xd0, 0xa8, 0xe0, 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00],
  },
  {
    name: "CPUIDInfo's ZMM-state check",
    before: [0x41, 0x81, 0xe6, 0xe6, 0x00, 0x00, 0x00, 0x31, 0xf6, 0x31, 0xc9,
             0x41, 0x81, 0xfe, 0xe6, 0x00, 0x00, 0x00],
    after: [0x41, 0x81, 0xe6, 0x06, 0x00, 0x00, 0x00, 0x31, 0xf6, 0x31, 0xc9,
            0x41, 0x81, 0xfe, 0xe6, 0x00, 0x00, 0x00],
  },
];

/** Offsets in `bytes` where `pattern` matches (`null` matches any byte). */
function findAll(bytes, pattern) {
  const found = [];
  const first = pattern[0];
  for (let i = bytes.indexOf(first); i >= 0 && i + pattern.length <= bytes.length;
       i = bytes.indexOf(first, i + 1)) {
    if (pattern.every((b, k) => b === null || bytes[i + k] === b))
      found.push(i);
  }
  return found;
}

/**
 * A copy of `bytes` (a libonnxruntime.so.1) with every site turned to
 * `after`; throws, naming the site and what was found, unless each site's
 * `before` occurs exactly once and its `after` nowhere.
 */
function withoutAvx512(bytes, sites = kSites) {
  const out = Buffer.from(bytes);
  for (const site of sites) {
    const at = findAll(bytes, site.before);
    const patched = findAll(bytes, site.after).length;
    if (at.length !== 1 || patched)
      throw new Error(`${site.name}: expected its instructions once, found ` +
        `them ${at.length} times (${patched} already patched); this ORT ` +
        'build is not the one ort_isa.js knows');
    site.after.forEach((b, k) => { out[at[0] + k] = b; });
  }
  return out;
}

/** 'avx2' when `bytes` carries every site's `after` once, else 'native'. */
function patchedIsa(bytes, sites = kSites) {
  return sites.every((s) => findAll(bytes, s.after).length === 1)
    ? 'avx2' : 'native';
}

/** The libonnxruntime.so.1 this process has mapped, or null. */
function loadedLibrary() {
  const maps = fs.readFileSync('/proc/self/maps', 'utf8');
  const line = maps.split('\n').find((l) => l.endsWith('/libonnxruntime.so.1'));
  return line ? line.slice(line.indexOf('/')) : null;
}

/** The shipped library of the onnxruntime-node package next to this file. */
function shippedLibrary() {
  const root = path.dirname(require.resolve('onnxruntime-node/package.json'));
  const bin = path.join(root, 'bin');
  for (const napi of fs.readdirSync(bin).sort().reverse()) {
    const lib = path.join(bin, napi, 'linux', 'x64', 'libonnxruntime.so.1');
    if (fs.existsSync(lib)) return lib;
  }
  throw new Error(`no linux/x64/libonnxruntime.so.1 under ${bin}`);
}

function main(argv) {
  if (argv.length !== 1) throw new Error('usage: ort_isa.js OUT_DIR');
  const lib = shippedLibrary();
  const patched = withoutAvx512(fs.readFileSync(lib));
  fs.mkdirSync(argv[0], { recursive: true });
  const out = path.join(argv[0], 'libonnxruntime.so.1');
  // Written beside and renamed, so a failed write leaves no half library.
  fs.writeFileSync(`${out}.tmp`, patched);
  fs.renameSync(`${out}.tmp`, out);
  process.stdout.write(`${out}\n`);
}

if (require.main === module) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`ort_isa: error: ${e.message}\n`);
    process.exitCode = 1;
  }
}

module.exports = { kSites, findAll, withoutAvx512, patchedIsa, loadedLibrary };
