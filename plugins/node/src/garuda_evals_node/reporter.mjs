// The node-test runner's JUnit reporter: node's own JUnit XML, with one flat <testcase>
// per test (describe blocks and tests with subtests included), its classname the test
// file relative to the working folder and its name the describe chain, so every id is
// unique across files. A name repeated in one chain gets " (2)", " (3)", ...
//
// It also prints `garuda-node-report <sha256 of the XML>` on node's stdout, which the
// harness captures as it is written: a report changed afterwards (by a process that
// outlived the tests) no longer matches, and a second such line shows a forger at work.
import { createHash } from 'node:crypto';
import { relative, resolve } from 'node:path';

const attribute = (text) => String(text).replace(/[<&"\n\r\t]/g, (c) => `&#${c.charCodeAt(0)};`);
const content = (text) => String(text).replace(/[<>&]/g, (c) => `&#${c.charCodeAt(0)};`);

function message(error) {
  if (!error) return '';
  const parts = [error.message, error.cause?.message, error.cause?.stack ?? error.stack];
  return parts.filter(Boolean).join('\n');
}

export default async function* junit(source) {
  const running = new Map();
  const seen = new Map();
  const cases = [];
  for await (const event of source) {
    const data = event.data ?? {};
    const file = data.file ? relative(process.cwd(), resolve(data.file)) : '';
    const stack = running.get(file) ?? [];
    running.set(file, stack);
    if (event.type === 'test:start') {
      stack.length = Math.min(stack.length, data.nesting);
      stack[data.nesting] = data.name;
    } else if (event.type === 'test:pass' || event.type === 'test:fail') {
      // A file that reported no test is one case named by its path: name it by the file.
      const whole = data.nesting === 0 && data.file && resolve(String(data.name)) === resolve(data.file);
      const chain = whole ? file : [...stack.slice(0, data.nesting), data.name].join(' > ');
      const key = `${file}\0${chain}`;
      const count = (seen.get(key) ?? 0) + 1;
      seen.set(key, count);
      const name = count > 1 ? `${chain} (${count})` : chain;
      let outcome = event.type === 'test:fail' ? 'failure' : 'passed';
      if (outcome === 'passed' && (data.skip !== undefined || data.todo !== undefined)) outcome = 'skipped';
      cases.push({ file, name, outcome, error: data.details?.error, time: data.details?.duration_ms });
    }
  }
  const lines = ['<?xml version="1.0" encoding="utf-8"?>\n<testsuites>\n'];
  for (const { file, name, outcome, error, time } of cases) {
    const head = `\t<testcase name="${attribute(name)}" classname="${attribute(file)}" time="${((time ?? 0) / 1000).toFixed(6)}"`;
    if (outcome === 'passed') lines.push(`${head}/>\n`);
    else if (outcome === 'skipped') lines.push(`${head}>\n\t\t<skipped type="skipped"/>\n\t</testcase>\n`);
    else {
      const text = message(error);
      lines.push(
        `${head}>\n\t\t<failure type="${attribute(error?.failureType ?? 'failure')}" message="${attribute(text.split('\n')[0])}">${content(text)}</failure>\n\t</testcase>\n`,
      );
    }
  }
  lines.push('</testsuites>\n');
  const xml = lines.join('');
  process.stdout.write(`\ngaruda-node-report ${createHash('sha256').update(xml).digest('hex')}\n`);
  yield xml;
}
