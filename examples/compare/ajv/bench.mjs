// BenchmarkRepairArgsJSON (../compare_test.go) in Node: the whole request,
// broken arguments text in and coerced text out, done as JSON.parse, AJV's
// validate with coerceTypes (which converts in place) and JSON.stringify, on
// the same bytes as the Go benchmark. The inputs in testdata/ are written by
// `go test -run TestAJVInputsAreCurrent -update` in examples/compare, with
// coerce's output for each (coerce_out.json), so they cannot drift from it.
//
//   cd examples/compare/ajv && npm ci && node bench.mjs
//
// ROUNDS (default 8) and BENCHTIME_MS (default 100, the length of one
// variant's run in one round) set the rounds. Each round runs every variant of
// every case once, in turn; a figure is the median over the rounds.
//
// Two variants per case:
//
//   ajv only: JSON.parse, validate, JSON.stringify. coerceTypes converts
//     scalars only ("10" -> 10, "true" -> true). It cannot read JSON text in
//     a string ("[\"type\"]" where an array is declared, a ```json fence where
//     an object is), nor write an object as the JSON text a string parameter
//     declares, so on the quickstart call validate returns false, at the first
//     of those (allErrors is off): it does less work than coerce and its
//     result is a rejection, not the call. On the numeric call it does what
//     coerce does.
//
//   ajv + hand fix (same result as coerce): JSON.parse, a fix written by hand
//     for that one tool's schema that does what AJV cannot (as FixQuickstart
//     in ../compare.go does for the Go libraries), then validate for the
//     scalars, then JSON.stringify. Run only where AJV alone falls short.
//
// Before timing, each variant's output is compared (parsed, deep-equal) with
// coerce's, and the result is printed beside its figure.

import Ajv from "ajv";
import { readFileSync, readdirSync } from "node:fs";
import os from "node:os";
import { isDeepStrictEqual } from "node:util";

const testdata = new URL("./testdata/", import.meta.url);
const ajvVersion = JSON.parse(readFileSync(new URL("./node_modules/ajv/package.json", import.meta.url), "utf8")).version;
const rounds = Number(process.env.ROUNDS ?? 8);
const benchNs = BigInt(Math.round(Number(process.env.BENCHTIME_MS ?? 100) * 1e6));

// The hand fix for the quickstart's tool (its schema is in
// testdata/mcp-call/schema.json): what FixQuickstart does, less the scalars,
// which AJV's coerceTypes converts. path_params is declared a string holding
// JSON object text and arrives as an object; group_by (array) and config
// (object) arrive as JSON text, config in a ```json fence.
function fixQuickstart(args) {
  const p = args.path_params;
  if (p !== null && typeof p === "object") {
    args.path_params = JSON.stringify(p);
  }
  for (const k of ["group_by", "config"]) {
    let s = args[k];
    if (typeof s !== "string") continue;
    s = s.trim();
    if (s.startsWith("```")) { // a fenced block
      s = s.slice(s.indexOf("\n") + 1);
      if (s.endsWith("```")) s = s.slice(0, -3);
    }
    args[k] = JSON.parse(s);
  }
}

// Hand fixes by case; a case without one needs none (AJV alone gives
// coerce's result).
const fixes = { "mcp-call": fixQuickstart };

const cases = readdirSync(testdata, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();
if (cases.length === 0) throw new Error("no cases in testdata/: run `go test -run TestAJVInputsAreCurrent -update` in examples/compare");

const read = (c, f) => readFileSync(new URL(`${c}/${f}`, testdata), "utf8");

// Each variant takes the call's text and returns the text to pass on, and
// sets valid to what the last validate returned.
const variants = [];
for (const name of cases) {
  const schema = JSON.parse(read(name, "schema.json"));
  const call = read(name, "call.json");
  const want = JSON.parse(read(name, "coerce_out.json"));
  // One compile per case, outside the timing.
  const validate = new Ajv({ coerceTypes: true }).compile(schema);
  const state = { valid: false };
  const only = (text) => {
    const args = JSON.parse(text);
    state.valid = validate(args);
    return JSON.stringify(args);
  };
  variants.push({ name, variant: "ajv only", run: only, call, want, state, validate });
  const fix = fixes[name];
  if (fix) {
    const fixed = (text) => {
      const args = JSON.parse(text);
      fix(args);
      state.valid = validate(args);
      if (!state.valid) throw new Error(`${name}: rejected after the hand fix`);
      return JSON.stringify(args);
    };
    variants.push({ name, variant: "ajv + hand fix (same result as coerce)", run: fixed, call, want, state, validate });
  }
}

// The check: each variant's output against coerce's.
for (const v of variants) {
  const out = v.run(v.call);
  v.same = isDeepStrictEqual(JSON.parse(out), v.want);
  v.note = v.same ? "same as coerce" : "NOT coerce's result";
  if (!v.state.valid) {
    const e = v.validate.errors[0];
    v.note += `; validate returned false: ${e.instancePath} ${e.message}`;
  }
  if (v.variant.startsWith("ajv + hand fix") && !v.same) {
    throw new Error(`${v.name}: the hand fix gives ${out}, coerce ${JSON.stringify(v.want)}`);
  }
}

let sink = 0; // every output's length, so that no call can be dropped

// timeLoop runs v n times and returns the elapsed nanoseconds.
function timeLoop(v, n) {
  const { run, call } = v;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) sink += run(call).length;
  return process.hrtime.bigint() - t0;
}

// Warm-up, until the JIT has settled: at least 0.5 s and 20000 calls each,
// and the count per round from its last second-half speed.
for (const v of variants) {
  let n = 1000, total = 0n, calls = 0;
  while (total < 500_000_000n || calls < 20000) {
    const ns = timeLoop(v, n);
    total += ns;
    calls += n;
    v.n = Math.max(1, Number((BigInt(n) * benchNs) / (ns > 0n ? ns : 1n)));
    n = Math.min(n * 2, 1 << 20);
  }
  v.perOp = [];
}

const load = () => os.loadavg().map((x) => x.toFixed(2)).join(" ");
const loadStart = load();
for (let r = 0; r < rounds; r++) {
  for (const v of variants) {
    v.perOp.push(Number(timeLoop(v, v.n)) / v.n);
  }
}
const loadEnd = load();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (ns) => (ns >= 1000 ? `${(ns / 1000).toPrecision(3)} µs` : `${ns.toPrecision(3)} ns`);

console.log(`node ${process.version} (node --version), ajv ${ajvVersion}`);
console.log(`${os.platform()}/${os.arch()}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? "unknown CPU"}`);
console.log(`load average (1, 5, 15 min): ${loadStart} at start, ${loadEnd} at end`);
console.log(`${rounds} rounds of ~${Number(benchNs) / 1e6} ms per variant, alternating; median ns/op [min–max over the rounds]`);
console.log("");
for (const v of variants) {
  const s = [...v.perOp].sort((a, b) => a - b);
  console.log(
    `case=${v.name.padEnd(13)} ${v.variant.padEnd(40)} ${median(v.perOp).toFixed(0).padStart(7)} ns/op` +
      `  (${fmt(median(v.perOp))} [${fmt(s[0])}–${fmt(s[s.length - 1])}], ${v.n} calls/round)  ${v.note}`,
  );
}
if (sink === 0) console.log("");
