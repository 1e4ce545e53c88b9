// The check of the write-tests task: the tests in spec/ must pass against src/ranges.js
// and against .check/rewrite.js (the same contract written differently), and fail against
// each mutant below (src/ranges.js with one documented rule broken).
// Usage: node .check/mutation.mjs <junit-report-path>
//
// The tests cannot tell the variants apart except by what the module does:
// - each variant reaches the tests only through .check/variant-loader.mjs: its text is
//   sent on stdin, compiled in its own V8 context, and wrapped; src/ranges.js in the copy
//   the tests run in is the same one-line shim for every variant;
// - the tests run under node's permission model: they read only their own copy of the
//   project, write only a private temporary folder (TMPDIR and HOME), and start no process,
//   worker or inspector;
// - every run (variant and test file) gets a fresh copy in a fresh folder, and the variants
//   run in a random order, so no state passes from one run to the next;
// - every variant gets a random banner and random names for its private helpers.
import { spawnSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MODULE = 'src/ranges.js';
const REWRITE = '.check/rewrite.js';
const LOADER = join(dirname(fileURLToPath(import.meta.url)), 'variant-loader.mjs');
const SHIM = "export const parseRanges = globalThis[Symbol.for('garuda.write-tests.variant')];\n";
const HELPERS = /\b(parsePart|isDigits)\b/g;
const SPEC_DIR = 'spec';
const MIN_TESTS = 3;
const TIMEOUT_MS = 30_000;
const NOT_COPIED = new Set(['.check', '.garuda-check', 'node_modules', '.git']);

const MUTANTS = [
  { rule: 1, name: 'spaces around parts are not ignored', edits: [['parsePart(raw.trim())', 'parsePart(raw)']] },
  { rule: 2, name: 'ranges leave out their end', edits: [['page <= end', 'page < end']] },
  { rule: 3, name: 'page 0 is accepted', edits: [['if (start < 1 || end < 1)', 'if (start < 0 || end < 0)']] },
  { rule: 4, name: 'backwards ranges are silently empty', edits: [['if (start > end) throw new RangeError(`range ${raw.trim()} runs backwards`);', 'if (start > end) continue;']] },
  { rule: 5, name: 'the result is not sorted', edits: [['[...pages].sort((a, b) => a - b)', '[...pages]']] },
  { rule: 5, name: 'repeated pages are kept', edits: [['const pages = new Set();', 'const pages = [];'], ['pages.add(page)', 'pages.push(page)']] },
  { rule: 6, name: 'a blank spec is an error', edits: [["if (spec.trim() === '') return [];", "if (spec === '') return [];"]] },
  { rule: 6, name: 'empty parts are skipped', edits: [["for (const raw of spec.split(',')) {", "for (const raw of spec.split(',')) {\n    if (raw.trim() === '') continue;"]] },
  { rule: 7, name: 'the last page may be exceeded by one', edits: [['if (end > max)', 'if (end > max + 1)']] },
];

function specFiles(folder) {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const found = [];
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...specFiles(path));
    else if (entry.isFile() && /\.test\.(c|m)?js$/.test(entry.name)) found.push(path);
  }
  return found.sort();
}

// The variant as a script for the loader: edits applied, the export turned into the
// script's value, a random banner and random helper names.
function variant(source, edits) {
  let text = source;
  for (const [find, replace] of edits) {
    if (text.split(find).length !== 2) throw new Error(`mutant edit does not apply once: ${find}`);
    text = text.replace(find, () => replace);
  }
  const exported = 'export function parseRanges(';
  if (text.split(exported).length !== 2) throw new Error(`${exported} does not occur once`);
  text = text.replace(exported, 'function parseRanges(');
  const tag = () => randomBytes(randomInt(3, 9)).toString('hex');
  const names = new Map();
  text = text.replace(HELPERS, (name) => {
    if (!names.has(name)) names.set(name, `${name}_${tag()}`);
    return names.get(name);
  });
  return `// build ${tag()}\n${text}\n;parseRanges;\n`;
}

// The cases of the last JUnit report on the run's stdout.
function readCases(stdout) {
  const xml = stdout.slice(Math.max(0, stdout.lastIndexOf('<testsuites')));
  const cases = [];
  const pattern = /<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g;
  for (const match of xml.matchAll(pattern)) {
    const body = match[2] ?? '';
    cases.push({ failed: /<failure\b/.test(body), skipped: /<skipped\b/.test(body) });
  }
  return cases;
}

const PERMISSION_FLAG =
  spawnSync(process.execPath, ['--permission', '-e', ''], { stdio: 'ignore' }).status === 0
    ? '--permission'
    : '--experimental-permission';

// One test file against one variant, in a fresh copy with a private temporary folder.
function runFile(script, file) {
  const base = mkdtempSync(join(tmpdir(), 'garuda-variant-'));
  const project = join(base, 'project');
  const scratch = join(base, 'tmp');
  try {
    cpSync('.', project, {
      recursive: true,
      filter: (path) => !NOT_COPIED.has(relative('.', path).split(sep)[0]),
    });
    rmSync(join(project, MODULE), { force: true }); // the judge's copy is read-only
    writeFileSync(join(project, MODULE), SHIM);
    mkdirSync(scratch);
    const run = spawnSync(
      process.execPath,
      [
        PERMISSION_FLAG,
        `--allow-fs-read=${join(project, '*')}`,
        `--allow-fs-read=${join(scratch, '*')}`,
        `--allow-fs-read=${LOADER}`,
        `--allow-fs-write=${join(scratch, '*')}`,
        '--import',
        pathToFileURL(LOADER).href,
        '--test-reporter=junit',
        '--test-reporter-destination=stdout',
        file,
      ],
      {
        cwd: project,
        input: script,
        env: { PATH: process.env.PATH ?? '', HOME: scratch, TMPDIR: scratch, LANG: 'C.UTF-8' },
        timeout: TIMEOUT_MS,
        encoding: 'utf8',
        killSignal: 'SIGKILL',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const cases = readCases(run.stdout ?? '');
    return {
      status: run.status,
      timedOut: run.error?.code === 'ETIMEDOUT' || run.signal !== null,
      tests: cases.filter((c) => !c.skipped).length,
      failed: cases.filter((c) => c.failed).length,
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

// Every test file against one variant: failed when any file failed.
function runSpecs(script, files) {
  const runs = files.map((file) => runFile(script, file));
  return {
    status: runs.some((r) => r.status !== 0) ? 1 : 0,
    timedOut: runs.some((r) => r.timedOut),
    tests: runs.reduce((sum, r) => sum + r.tests, 0),
    failed: runs.reduce((sum, r) => sum + r.failed, 0),
    empty: runs.filter((r) => r.tests === 0).length,
  };
}

function judgeCorrect(what) {
  return (run) => {
    if (run.timedOut) return `the tests did not finish within ${TIMEOUT_MS / 1000} s`;
    if (run.empty) return `${run.empty} test file(s) ended before reporting any test`;
    if (run.status !== 0 || run.failed) return `${run.failed} of ${run.tests} test(s) fail against ${what}`;
    if (run.tests < MIN_TESTS) return `only ${run.tests} test(s) ran; write at least ${MIN_TESTS}`;
    return null;
  };
}

function judgeMutant(run) {
  if (run.timedOut) return 'the tests hung instead of failing';
  if (run.status === 0 || run.failed === 0) return 'every test still passes: this mutant survived';
  return null;
}

function shuffled(items) {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = randomInt(index + 1);
    [copy[index], copy[other]] = [copy[other], copy[index]];
  }
  return copy;
}

const escape = (text) =>
  String(text).replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]);

function writeJunit(path, results) {
  const failures = results.filter((r) => r.problem).length;
  const cases = results.map(({ name, problem }) =>
    problem
      ? `    <testcase name="${escape(name)}" classname="mutation"><failure message="${escape(problem)}"/></testcase>`
      : `    <testcase name="${escape(name)}" classname="mutation"/>`,
  );
  writeFileSync(
    path,
    `<?xml version="1.0" encoding="utf-8"?>\n<testsuites>\n  <testsuite name="mutation check" tests="${results.length}" failures="${failures}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`,
  );
}

const junitPath = process.argv[2];
if (!junitPath) {
  console.error('usage: node .check/mutation.mjs <junit-report-path>');
  process.exit(64);
}
const original = readFileSync(MODULE, 'utf8');
const rewrite = readFileSync(REWRITE, 'utf8');
const files = specFiles(SPEC_DIR);
const checks = [
  { name: `tests in ${SPEC_DIR}/ pass against ${MODULE}`, source: original, edits: [], judge: judgeCorrect(MODULE) },
  {
    name: `tests in ${SPEC_DIR}/ pass against ${MODULE} written differently`,
    source: rewrite,
    edits: [],
    judge: judgeCorrect(`${MODULE} written differently (${REWRITE})`),
  },
  ...MUTANTS.map((mutant) => ({
    name: `rule ${mutant.rule} mutant fails: ${mutant.name}`,
    source: original,
    edits: mutant.edits,
    judge: judgeMutant,
  })),
];
const problems = new Map();
if (files.length === 0) {
  problems.set(checks[0], `no ${SPEC_DIR}/*.test.js files`);
  for (const check of checks.slice(1)) problems.set(check, 'not run: no tests');
} else {
  for (const check of shuffled(checks)) {
    problems.set(check, check.judge(runSpecs(variant(check.source, check.edits), files)));
  }
}
const results = checks.map((check) => ({ name: check.name, problem: problems.get(check) }));
writeJunit(junitPath, results);
for (const { name, problem } of results) {
  console.log(`${problem ? 'FAIL' : 'ok  '} ${name}${problem ? ` (${problem})` : ''}`);
}
const failed = results.filter((r) => r.problem).length;
console.log(`${results.length - failed} of ${results.length} mutation checks passed`);
process.exit(failed ? 1 : 0);
