// Preloaded (--import) into every run of the tests: the module variant arrives on stdin
// as a script, is compiled in its own V8 context, and only a wrapper reaches the tests.
// The wrapper is the same for every variant; the variant's text never reaches the disk
// the tests can read, and the functions that could read it back from memory are removed.
import { readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import v8 from 'node:v8';
import vm from 'node:vm';

const KEY = Symbol.for('garuda.write-tests.variant');
const ERRORS = { Error, RangeError, ReferenceError, SyntaxError, TypeError };
const isArray = Array.isArray;
const toText = String;
const toNumber = Number;

const source = readFileSync(0, 'utf8');
const impl = vm.runInContext(source, vm.createContext(Object.create(null)), {
  filename: 'ranges.js',
});

for (const name of ['getHeapSnapshot', 'writeHeapSnapshot', 'setHeapSnapshotNearHeapLimit', 'setFlagsFromString']) {
  v8[name] = () => {
    throw new Error(`v8.${name} is not available while the module is tested`);
  };
}
syncBuiltinESMExports();

const isObject = (value) => value !== null && (typeof value === 'object' || typeof value === 'function');

// Objects are turned into primitives here, so no code of the tests runs inside the variant
// (where a stack trace would show the variant's line and column numbers).
function plainSpec(spec) {
  if (!isObject(spec)) return spec;
  if (typeof spec.trim !== 'function') throw new TypeError('spec.trim is not a function');
  return toText(spec);
}

function plainOptions(options) {
  if (!isObject(options)) return options;
  const max = options.max;
  return { max: isObject(max) ? toNumber(max) : max };
}

function parseRanges(spec) {
  const args = [plainSpec(spec), plainOptions(arguments[1])];
  let result;
  try {
    result = impl(args[0], args[1]);
  } catch (error) {
    const Type = ERRORS[error?.name] ?? Error;
    throw new Type(toText(error?.message));
  }
  if (!isArray(result)) return result;
  const copy = [];
  for (let index = 0; index < result.length; index += 1) copy[index] = result[index];
  return copy;
}

globalThis[KEY] = parseRanges;
