// geflow's side of the comparison: `geflow compile` and `geflow run` through
// the CLI, their figures read from the summaries they print.
'use strict';
const { spawnSync } = require('child_process');

/** Runs geflow with `args`; its stdout, or an Error with its one-line error. */
function geflow(binary, args) {
  const r = spawnSync(binary, args, { encoding: 'utf8' });
  if (r.status !== 0)
    throw new Error(`geflow ${args[0]}: ${(r.stderr || r.stdout).trim()}`);
  return r.stdout;
}

function field(text, re, what) {
  const m = re.exec(text);
  if (!m) throw new Error(`geflow printed no ${what}:\n${text}`);
  return Number(m[1]);
}

/**
 * The names `--no-fuse` accepts, read from the error geflow gives for a name
 * that does not exist (it lists the valid ones); none when there is no fusion.
 */
function fusionNames(binary, model, om) {
  const r = spawnSync(binary, ['compile', model, '-o', om,
                               '--no-fuse=geflow-bench-no-such-pass'],
                      { encoding: 'utf8' });
  if (r.status === 0) return [];
  const text = r.stderr.trim();
  const list = text.slice(text.lastIndexOf(':') + 1);
  const names = list.split(/[\s,]+/).map((s) => s.replace(/['"`.]/g, ''))
    .filter((s) => /^[a-z][a-z0-9-]*$/.test(s));
  if (!names.length) throw new Error(`cannot read fusion names from: ${text}`);
  return names;
}

/** Compiles `model` to `om`; {kernels, compileMs (geflow's own), wallMs}. */
function compile(binary, model, om, extraArgs = []) {
  const t0 = performance.now();
  const out = geflow(binary, ['compile', model, '-o', om, ...extraArgs]);
  const wallMs = performance.now() - t0;
  return {
    kernels: field(out, /^\s*kernels\s+(\d+)/m, 'kernel count'),
    compileMs: field(out, /^\s*compile time\s+([\d.]+) ms/m, 'compile time'),
    wallMs,
  };
}

/**
 * Runs `om` `repeat` times after `warmup` untimed executions on `threads`
 * host threads with inputs {name: file}; writes the outputs into
 * `outputDir`. {medianMs, deviceUs, isa (the kernels' instruction set)}.
 */
function run(binary, om, inputs, { threads, repeat, warmup = 0, outputDir }) {
  const args = ['run', om, '--repeat', String(repeat), '--warmup',
                String(warmup), '--threads', String(threads)];
  for (const [name, file] of Object.entries(inputs))
    args.push('--input', `${name}=${file}`);
  if (outputDir) args.push('--output-dir', outputDir);
  const out = geflow(binary, args);
  return {
    medianMs: field(out, /host latency\s+([\d.]+) ms/, 'host latency'),
    deviceUs: field(out, /device time\s+([\d.]+) us/, 'device time'),
    isa: (/^\s*isa\s+(.+)$/m.exec(out) || [, 'unknown'])[1].trim(),
  };
}

module.exports = { fusionNames, compile, run };
