// The comparison's arguments, round plan, summary and markdown on made-up
// rows: no ONNX Runtime and no geflow needed (ctest bench-compare-ort-report).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const report = require('../report');

test('parseArgs reads every option and puts --zoo first', () => {
  const opts = report.parseArgs([
    '--geflow', 'bin/geflow', '--work', 'w', '--threads', '1,2,4', '--runs',
    '24', '--rounds', '3', '--zoo', 'zoo', '--markdown', 'out/ort-{isa}.md',
    '--fusion', '--note', 'commit abc', 'extra.onnx']);
  assert.equal(opts.geflow, 'bin/geflow');
  assert.deepEqual(opts.threads, [1, 2, 4]);
  assert.equal(opts.runs, 24);
  assert.equal(opts.rounds, 3);
  assert.deepEqual(opts.models, ['zoo', 'extra.onnx']);
  assert.equal(opts.markdown, 'out/ort-{isa}.md');
  assert.equal(opts.fusion, true);
  assert.deepEqual(opts.notes, ['commit abc']);
});

test('parseArgs defaults and errors', () => {
  const opts = report.parseArgs(['--geflow', 'g', '--work', 'w', 'm.onnx']);
  assert.deepEqual(opts.threads, [1, 2]);
  assert.equal(opts.runs, 20);
  assert.equal(opts.rounds, 4);
  assert.equal(opts.fusion, false);
  assert.throws(() => report.parseArgs(['--geflow', 'g', 'm.onnx']), /usage/);
  assert.throws(() => report.parseArgs(['--geflow', 'g', '--work', 'w',
                                        '--threads', '1,0', 'm']), /positive/);
  assert.throws(() => report.parseArgs(['--runs']), /needs a value/);
  assert.throws(() => report.parseArgs(['--bogus']), /unknown option --bogus/);
});

test('roundPlan splits the runs into equal alternating blocks', () => {
  assert.deepEqual(report.roundPlan(20, 4), { rounds: 4, perRound: 5 });
  assert.deepEqual(report.roundPlan(21, 4), { rounds: 4, perRound: 6 });
  assert.deepEqual(report.roundPlan(2, 4), { rounds: 2, perRound: 1 });
});

test('median, geomean and the ISA short name', () => {
  assert.equal(report.median([3, 1, 2]), 2);
  assert.equal(report.median([4, 1, 3, 2]), 2.5);
  assert.ok(Math.abs(report.geomean([2, 8]) - 4) < 1e-12);
  assert.ok(Math.abs(report.spread([10, 12, 11]) - 0.2) < 1e-12);
  assert.equal(report.isaShortName('avx2+fma (GEFLOW_ISA; the CPU runs avx512)'),
               'avx2');
  assert.equal(report.isaShortName('avx512'), 'avx512');
  assert.equal(report.isaShortName(null), 'unknown');
});

const ROWS = [
  { model: 'a', threads: 1, zoo: true, geflowMs: 20, ortMs: 10, vsTorch: 'ok',
    vsOrt: 'ok', compileMs: 5, ortCreateMs: 50, spread: [0.1, 0.054] },
  { model: 'b', threads: 1, zoo: true, geflowMs: 5, ortMs: 10, vsTorch: 'ok',
    vsOrt: 'ok', compileMs: 5, ortCreateMs: 50 },
  { model: 'c', threads: 1, zoo: true, geflowMs: null, ortMs: 7,
    error: 'geflow compile: unsupported op Foo\nmore', compileMs: null,
    ortCreateMs: 9 },
  { model: 'tiny', threads: 1, zoo: false, geflowMs: 100, ortMs: 1,
    vsOrt: 'ok', compileMs: 1, ortCreateMs: 2 },
  { model: 'a', threads: 2, zoo: true, geflowMs: 9, ortMs: 10, vsTorch: 'ok',
    vsOrt: 'y: max diff 1 (max 2)', compileMs: 5, ortCreateMs: 50 },
];

test('summarize: geomean and worst over the zoo models geflow ran', () => {
  const s = report.summarize(ROWS, 1);
  assert.ok(Math.abs(s.geomean - 1) < 1e-12); // 2.0 and 0.5; tiny left out
  assert.deepEqual(s.worst, { model: 'a', ratio: 2 });
  assert.equal(s.count, 2);
  assert.equal(s.total, 3);
  assert.deepEqual(s.failed, ['c']);
  const two = report.summarize(ROWS, 2);
  assert.ok(Math.abs(two.geomean - 0.9) < 1e-12);
  assert.deepEqual(two.failed, []);
  // Without zoo marks every row counts.
  const plain = ROWS.map((r) => ({ ...r, zoo: undefined }));
  assert.equal(report.summarize(plain, 1).total, 4);
  assert.equal(report.summarize(plain, 1).worst.model, 'tiny');
});

test('formatReport: header, a table per thread count, summary and errors', () => {
  const text = report.formatReport({ header: ['CPU: test', 'geflow ISA: avx512'],
                                     rows: ROWS, threads: [1, 2] });
  assert.match(text, /^# geflow vs ONNX Runtime\n\n- CPU: test\n- geflow ISA: avx512\n/);
  assert.match(text, /## 1 thread\n/);
  assert.match(text, /## 2 threads\n/);
  assert.match(text, /\| model +\| geflow ms \| ORT ms \| ratio \| vs torch \| vs ORT/);
  assert.match(text, /\| a +\| 20\.00 +\| 10\.00 +\| 2\.00 +\| ok +\| ok +\| 10% \/ 5% +\|/);
  assert.match(text, /\| c +\| - +\| 7\.00 +\| - +\|/);
  assert.match(text, /\| tiny \* \|/);
  assert.match(text, /\*\*1 thread: geomean geflow\/ORT 1\.00\*\* over 2 of 3 models; worst a 2\.00; not run in geflow: c/);
  assert.match(text, /\*\*2 threads: geomean geflow\/ORT 0\.90\*\* over 1 of 1 models; worst a 0\.90\n/);
  assert.match(text, /- c: geflow compile: unsupported op Foo\n/);
  assert.doesNotMatch(text, /more/);
  assert.match(text, /\\\* not in the zoo/);
  assert.doesNotMatch(text, /kernels unfused/);
  assert.match(report.formatReport({ header: [], rows: ROWS, threads: [1],
                                     fusion: true }), /kernels unfused\/fused/);
});

test('allGood: a failed model or a disagreeing output fails the run', () => {
  assert.equal(report.allGood(ROWS.slice(0, 2)), true);
  assert.equal(report.allGood(ROWS), false);
  assert.equal(report.allGood([ROWS[4]]), false);
  assert.equal(report.allGood([{ ...ROWS[0], vsTorch: 'ok (all 0)' }]), true);
});
