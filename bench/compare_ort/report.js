// The comparison's arguments and its report: the command line, the summary
// of the measured rows (geometric mean of the ratios per thread count, the
// worst model, the models that failed) and the markdown tables. Plain
// functions with no ONNX Runtime and no geflow in them, so the logic is
// unit-tested on made-up rows (test/report.test.js).
'use strict';

const USAGE = 'usage: compare_ort.js --geflow BIN --work DIR [--threads 1,2] ' +
  '[--runs N] [--rounds K] [--zoo DIR] [--markdown FILE] [--fusion] ' +
  '[--note TEXT] MODEL.onnx|FOLDER ...';

function positiveInt(flag, text) {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${flag} takes positive integers, not '${text}'`);
  return n;
}

/**
 * Calls option(a, value) for each argument `a` of `argv`; value() takes the
 * next argument as the option's value.
 */
function walkArgs(argv, option) {
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    option(a, () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    });
  }
}

/** The options of `argv` (process.argv without node and the script). */
function parseArgs(argv) {
  const opts = { threads: [1, 2], runs: 20, rounds: 4, models: [], notes: [],
                 fusion: false };
  walkArgs(argv, (a, value) => {
    if (a === '--geflow') opts.geflow = value();
    else if (a === '--work') opts.work = value();
    else if (a === '--threads')
      opts.threads = value().split(',').map((t) => positiveInt(a, t));
    else if (a === '--runs') opts.runs = positiveInt(a, value());
    else if (a === '--rounds') opts.rounds = positiveInt(a, value());
    else if (a === '--zoo') opts.zoo = value();
    else if (a === '--markdown') opts.markdown = value();
    else if (a === '--note') opts.notes.push(value());
    else if (a === '--fusion') opts.fusion = true;
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else opts.models.push(a);
  });
  if (opts.zoo) opts.models.unshift(opts.zoo);
  if (!opts.geflow || !opts.work || !opts.models.length)
    throw new Error(USAGE);
  return opts;
}

/**
 * How `runs` timed runs per side split into `rounds` alternating blocks:
 * equal blocks of at least one run, enough of them to make `runs`.
 */
function roundPlan(runs, rounds) {
  const k = Math.min(rounds, runs);
  return { rounds: k, perRound: Math.ceil(runs / k) };
}

/** The median of a non-empty list of numbers. */
function median(values) {
  const v = [...values].sort((a, b) => a - b);
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** How far apart a side's round medians are: max / min - 1. */
function spread(values) {
  return Math.max(...values) / Math.min(...values) - 1;
}

function geomean(values) {
  return Math.exp(values.reduce((s, v) => s + Math.log(v), 0) / values.length);
}

/** 'avx512', 'avx2' or 'baseline' from geflow's isa text ("avx2+fma (...)"). */
function isaShortName(isaText) {
  const first = String(isaText || 'unknown').trim().split(/\s+/)[0];
  return first.replace(/\+fma$/, '');
}

/**
 * The summary of one thread count. A row is {model, threads, zoo, ortMs,
 * geflowMs (null when geflow failed), error, vsTorch, vsOrt}; the geometric
 * mean and the worst model are over the zoo rows geflow ran (all rows when
 * none is marked zoo), and the zoo rows it could not run are listed.
 */
function summarize(rows, threads) {
  const mine = rows.filter((r) => r.threads === threads);
  const counted = mine.some((r) => r.zoo) ? mine.filter((r) => r.zoo) : mine;
  const ran = counted.filter((r) => r.geflowMs != null && r.ortMs != null);
  const failed = counted.filter((r) => !ran.includes(r)).map((r) => r.model);
  const ratios = ran.map((r) => r.geflowMs / r.ortMs);
  let worst = null;
  ran.forEach((r, k) => {
    if (!worst || ratios[k] > worst.ratio)
      worst = { model: r.model, ratio: ratios[k] };
  });
  return {
    threads, count: ran.length, total: counted.length, failed, worst,
    geomean: ratios.length ? geomean(ratios) : null,
  };
}

const fixed = (digits) => (v) => (v == null ? '-' : v.toFixed(digits));
const ms = fixed(2);

const COLUMNS = [
  ['model', (r) => (r.zoo === false ? `${r.model} *` : r.model)],
  ['geflow ms', (r) => ms(r.geflowMs)],
  ['ORT ms', (r) => ms(r.ortMs)],
  ['ratio', (r) => (r.geflowMs != null && r.ortMs != null
    ? (r.geflowMs / r.ortMs).toFixed(2) : '-')],
  ['vs torch', (r) => r.vsTorch || '-'],
  ['vs ORT', (r) => r.vsOrt || '-'],
  ['rounds spread', (r) => (r.spread
    ? r.spread.map((v) => `${Math.round(100 * v)}%`).join(' / ') : '-')],
  ['compile ms', (r) => fixed(1)(r.compileMs)],
  ['ORT create ms', (r) => fixed(1)(r.ortCreateMs)],
];
const FUSION_COLUMNS = [
  ['kernels unfused/fused', (r) => (r.kernels ? r.kernels.join(' / ') : '-')],
  ['device us unfused/fused', (r) => (r.deviceUs
    ? r.deviceUs.map((v) => v.toFixed(1)).join(' / ') : '-')],
];

/** A markdown table of `rows` with `columns` ([header, row -> text]). */
function markdownTable(rows, columns) {
  const cells = [columns.map(([h]) => h),
                 ...rows.map((r) => columns.map(([, f]) => f(r)))];
  const width = columns.map((_, c) => Math.max(...cells.map((l) => l[c].length)));
  const line = (l) => `| ${l.map((s, c) => s.padEnd(width[c])).join(' | ')} |`;
  return [line(cells[0]), `|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`,
          ...cells.slice(1).map(line)].join('\n');
}

function summaryLine(s) {
  const unit = s.threads === 1 ? 'thread' : 'threads';
  if (s.geomean == null)
    return `**${s.threads} ${unit}: no model ran in geflow** ` +
           `(failed: ${s.failed.join(', ') || 'none'})`;
  let text = `**${s.threads} ${unit}: geomean geflow/ORT ` +
             `${s.geomean.toFixed(2)}** over ${s.count} of ${s.total} ` +
             `models; worst ${s.worst.model} ${s.worst.ratio.toFixed(2)}`;
  if (s.failed.length) text += `; not run in geflow: ${s.failed.join(', ')}`;
  return text;
}

/** An error's first line, at most 300 characters, for a table's notes. */
function firstLine(text) {
  const line = String(text).split('\n')[0];
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

/**
 * The whole report as markdown: `header` lines as a list, then per thread
 * count its table, its summary line, and the reasons of the failed rows.
 */
function formatReport({ header, rows, threads, fusion = false }) {
  const columns = fusion ? [...COLUMNS, ...FUSION_COLUMNS] : COLUMNS;
  const out = ['# geflow vs ONNX Runtime', '', ...header.map((h) => `- ${h}`)];
  for (const t of threads) {
    const mine = rows.filter((r) => r.threads === t);
    out.push('', `## ${t} thread${t === 1 ? '' : 's'}`, '',
             markdownTable(mine, columns), '', summaryLine(summarize(rows, t)));
    const errors = mine.filter((r) => r.error);
    if (errors.length)
      out.push('', ...errors.map((r) => `- ${r.model}: ${firstLine(r.error)}`));
  }
  if (rows.some((r) => r.zoo === false))
    out.push('', '\\* not in the zoo: left out of the geometric mean');
  return out.join('\n') + '\n';
}

/** True when every row ran in geflow and every output check passed. */
function allGood(rows) {
  const ok = (v) => !v || v.startsWith('ok');
  return rows.every((r) => !r.error && ok(r.vsTorch) && ok(r.vsOrt));
}

module.exports = {
  walkArgs, positiveInt,
  USAGE, parseArgs, roundPlan, median, spread, geomean, isaShortName, summarize,
  markdownTable, formatReport, allGood,
};
