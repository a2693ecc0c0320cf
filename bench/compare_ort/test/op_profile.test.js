// op_profile.js's parsing and grouping on made-up profiles: no ONNX Runtime
// and no geflow needed (ctest bench-compare-ort-report).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const prof = require('../op_profile');

test('prefixOf keeps the first parts of the module path', () => {
  assert.equal(prof.prefixOf('/layer1/layer1.0/conv1/Conv', 2),
               'layer1/layer1.0');
  assert.equal(prof.prefixOf('/layer1/layer1.0/relu/Relu_output_0_nchwc', 2),
               'layer1/layer1.0');
  assert.equal(prof.prefixOf('Flatten', 3), 'Flatten');
});

test('readGeflowProfile sums host wall times and leaves events out', () => {
  // Host Time sums the threads; the wall time is what ORT's times compare to.
  const csv = [
    'Op Name,OP Type,Task Type,Stream ID,Host Time(us),Host Wall Time(us)',
    'event_wait_1,EVENT_WAIT,EVENT,1,9.0,9.0',
    '/a/conv,fused_conv,AI_CORE,0,240.0,120.5',
    '/a/conv,fused_conv,AI_CORE,1,20.0,10.0',
    '/b/add,add,AI_VECTOR,0,3.5,3.5',
  ].join('\n');
  assert.deepEqual(prof.readGeflowProfile(csv),
                   { '/a/conv': 130.5, '/b/add': 3.5 });
  assert.throws(() => prof.readGeflowProfile('Op Name,OP Type\nx,y'),
                /lacks/);
  assert.throws(
      () => prof.readGeflowProfile(
          'Op Name,OP Type,Task Type,Stream ID,Host Time(us)\nx,y,AI_CORE,0,1'),
      /lacks/);
});

test('readOrtProfile takes the median of each node\'s last runs', () => {
  const events = [
    { cat: 'Session', name: 'model_run', dur: 999 },
    { cat: 'Node', name: '/a/conv_kernel_time', dur: 500 }, // a warm-up
    { cat: 'Node', name: '/a/conv_kernel_time', dur: 10 },
    { cat: 'Node', name: '/a/conv_fence_before', dur: 1 },
    { cat: 'Node', name: '/a/conv_kernel_time', dur: 30 },
    { cat: 'Node', name: '/a/conv_kernel_time', dur: 20 },
  ];
  assert.deepEqual(prof.readOrtProfile(events, 3), { '/a/conv': 20 });
});

test('byPrefix sums both sides and puts the largest gap first', () => {
  const rows = prof.byPrefix(
      { '/a/x/conv': 100, '/a/y/conv': 50, '/b/conv': 10 },
      { '/a/x/relu_nchwc': 60, '/b/conv_nchwc': 40, '/c/pool': 5 }, 1);
  assert.deepEqual(rows.map((r) => [r.prefix, r.geflowUs, r.ortUs]), [
    ['a', 150, 60], ['c', 0, 5], ['b', 10, 40]]);
});

test('parseArgs defaults and errors', () => {
  const opts = prof.parseArgs(['--geflow', 'g', 'm.onnx']);
  assert.deepEqual([opts.threads, opts.runs, opts.depth], [1, 20, 2]);
  assert.throws(() => prof.parseArgs(['m.onnx']), /usage/);
  assert.throws(() => prof.parseArgs(['--geflow', 'g', '--runs', '0', 'm']),
                /positive integers/);
  assert.throws(() => prof.parseArgs(['--geflow', 'g', '--bogus', 'm']),
                /unknown option/);
});
