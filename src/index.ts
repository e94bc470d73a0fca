// First: V8's WebAssembly tiering is set before the bundled undici compiles its parser (see there).
import './action/wasm-tiering.js';
import { run } from './action/main.js';

// The Action's entry (action.yml `main: dist/index.js`, bundled by ncc): everything happens in run().
await run();
