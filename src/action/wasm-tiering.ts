import { setFlagsFromString } from 'node:v8';

/**
 * Why the Action's process used to linger 0.1–0.4 s after its last line, and what stops it.
 *
 * `@actions/github` sends every REST call through the bundled undici, whose HTTP parser is llhttp
 * compiled to WebAssembly. V8 runs it in its baseline compiler (Liftoff) and, once the parser has
 * done about `--wasm-tiering-budget` of work, recompiles its main function (28 KB of wasm) with
 * TurboFan on a background thread: 80–440 ms and a 24 MB zone (`--trace-wasm-compilation-times`:
 * "wasm-function#20 using TurboFan"). V8 counts that work so generously that the three calls of a
 * pull request's comment (`GET /user`, list the comments, create one) reach the budget, on Node 20
 * (1.8 M) and on Node 24 (13 M), at the very end of the run. Node 20 then waits for the job before
 * `exit` (the main thread in a futex while that thread maps the zone 32 KB at a time), Node 24
 * while it tears the isolate down. No handle is open: the process waits for a compile whose code it will
 * never run.
 *
 * A job's few dozen API responses are parsed as fast by Liftoff code, so the budget is raised far
 * above what they use (1000 × Node 20's default, 138 × Node 24's): a job that makes thousands of
 * calls still gets the optimised parser. Set before any module compiles the parser, which is why
 * src/index.ts imports this first.
 */
export const WASM_TIERING_BUDGET = 1_800_000_000;

setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
