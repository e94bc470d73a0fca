import { run } from './action/main.js';

// The Action's entry (action.yml `main: dist/index.js`, bundled by ncc): everything happens in run().
await run();
