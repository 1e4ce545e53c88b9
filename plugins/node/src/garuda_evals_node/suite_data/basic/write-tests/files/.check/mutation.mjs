// The check of the write-tests task: the tests in spec/ must pass against src/ranges.js
// and fail against each mutant below (src/ranges.js with one documented rule broken).
// Usage: node .check/mutation.mjs <junit-report-path>
//
// Every run (the real module and each mutant) happens in a fresh copy of the project in a
// random temporary folder, and every variant of the module gets a random banner and a
// random name for its private helper, so a test cannot tell the runs apart by path or by
// comparing the module's text: only by what the module does.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';

const MODULE = 'src/ranges.js';
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

function variant(source, edits) {
  let text = source;
  for (const [find, replace] of edits) {
    if (text.split(find).length !== 2) throw new Error(`mutant edit does not apply once: ${find}`);
    text = text.replace(find, () => replace);
  }
  const tag = randomBytes(6).toString('hex');
  return `// build ${tag}\n${text.replaceAll('parsePart', `parsePart_${tag}`)}`;
}

// A test file that reported no test (it exited early, or holds none) appears as one case
// named by its path: absolute on node 20, as given on node 22.
function readCases(xml, fileNames) {
  const cases = [];
  const pattern = /<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g;
  for (const match of xml.matchAll(pattern)) {
    const name = /\bname="([^"]*)"/.exec(match[1])?.[1] ?? '';
    const fileLevel = fileNames.has(name);
    cases.push({ name, fileLevel, failed: /<failure\b/.test(match[2] ?? '') });
  }
  return cases;
}

function runSpecs(source, files) {
  const project = mkdtempSync(join(tmpdir(), 'garuda-variant-'));
  const reports = mkdtempSync(join(tmpdir(), 'garuda-variant-report-'));
  try {
    cpSync('.', project, {
      recursive: true,
      filter: (path) => !NOT_COPIED.has(relative('.', path).split(sep)[0]),
    });
    writeFileSync(join(project, MODULE), source);
    const report = join(reports, 'report.xml');
    const run = spawnSync(
      process.execPath,
      ['--test', '--test-reporter=junit', `--test-reporter-destination=${report}`, ...files],
      { cwd: project, timeout: TIMEOUT_MS, encoding: 'utf8', killSignal: 'SIGKILL' },
    );
    let xml = '';
    try {
      xml = readFileSync(report, 'utf8');
    } catch {}
    const cases = readCases(xml, new Set(files.flatMap((file) => [file, join(project, file)])));
    return {
      status: run.status,
      timedOut: run.error?.code === 'ETIMEDOUT' || run.signal !== null,
      tests: cases.filter((c) => !c.fileLevel).length,
      failed: cases.filter((c) => !c.fileLevel && c.failed).length,
      fileLevel: cases.filter((c) => c.fileLevel).length,
    };
  } finally {
    rmSync(project, { recursive: true, force: true });
    rmSync(reports, { recursive: true, force: true });
  }
}

function judgeReal(run) {
  if (run.timedOut) return `the tests did not finish within ${TIMEOUT_MS / 1000} s`;
  if (run.fileLevel) return `${run.fileLevel} test file(s) ended before reporting any test`;
  if (run.status !== 0 || run.failed) return `${run.failed} of ${run.tests} test(s) fail against ${MODULE}`;
  if (run.tests < MIN_TESTS) return `only ${run.tests} test(s) ran; write at least ${MIN_TESTS}`;
  return null;
}

function judgeMutant(run) {
  if (run.timedOut) return 'the tests hung instead of failing';
  if (run.status === 0 || run.failed === 0) return 'every test still passes: this mutant survived';
  return null;
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
const files = specFiles(SPEC_DIR);
const results = [];
if (files.length === 0) {
  results.push({ name: `tests in ${SPEC_DIR}/ pass against ${MODULE}`, problem: `no ${SPEC_DIR}/*.test.js files` });
} else {
  const real = runSpecs(variant(original, []), files);
  results.push({ name: `tests in ${SPEC_DIR}/ pass against ${MODULE}`, problem: judgeReal(real) });
  for (const mutant of MUTANTS) {
    const run = runSpecs(variant(original, mutant.edits), files);
    results.push({ name: `rule ${mutant.rule} mutant fails: ${mutant.name}`, problem: judgeMutant(run) });
  }
}
writeJunit(junitPath, results);
for (const { name, problem } of results) {
  console.log(`${problem ? 'FAIL' : 'ok  '} ${name}${problem ? ` (${problem})` : ''}`);
}
const failed = results.filter((r) => r.problem).length;
console.log(`${results.length - failed} of ${results.length} mutation checks passed`);
process.exit(failed ? 1 : 0);
