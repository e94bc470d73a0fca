/**
 * The conversation `--context-fill` takes its turns from (docs/context.md, "Filling context"):
 * ordinary prior work in a small TypeScript service, written for skilltrigger, the same on every
 * run. Changing a word changes every fill's hash: `compare` then warns that contexts differ.
 */
import type { ContextTurn } from '../agents/transcript.js';

/** One exchange: the user's message and the assistant's answer. */
type Exchange = readonly [user: string, assistant: string];

const EXCHANGES: readonly Exchange[] = [
  [
    'The test suite fails on my machine since this morning: `npm test` stops in src/orders/total.test.ts. Can you look?',
    'I ran `npm test` and read the failure. Two cases in `total.test.ts` fail: "applies the discount before tax" and "rounds to the cent". Both expect 107.00 and get 106.99. The cause is in `src/orders/total.ts`: `computeTotal` now rounds the discounted subtotal before adding tax, since yesterday\'s commit that moved rounding into `applyDiscount`. Rounding twice loses the cent. I changed `applyDiscount` to return the exact value and kept one `Math.round(x * 100) / 100` at the end of `computeTotal`. All 214 tests pass now, and `npm run lint` is clean.',
  ],
  [
    'Thanks. While you are in there, the function is hard to read. Could you split it without changing behaviour?',
    'Done. `computeTotal` is now three steps, each a small function in the same file: `subtotalOf(lines)` sums quantity × unit price, `discounted(subtotal, coupon)` applies the coupon (percentage or fixed, never below zero), and `withTax(amount, region)` looks the rate up in `TAX_RATES`. `computeTotal` reads as those three calls and the final rounding. I kept the exported signature as it was, so no caller changes. The tests still pass unchanged, which is the point of the exercise; I also added one case for a fixed coupon larger than the subtotal, since that branch had no test.',
  ],
  [
    'CI is red on the pull request though. Something about Node versions?',
    'The workflow in `.github/workflows/ci.yml` runs a matrix of Node 18, 20 and 22. It fails only on 18: `structuredClone` is used in `src/cart/snapshot.ts`, and although Node 18 has it, the test helper imports `node:test` features added in 20. The `engines` field in package.json already says `>=20`, so Node 18 should not be in the matrix at all. I removed it from the matrix and left a comment pointing at `engines`. I also pinned `actions/setup-node` to the same major version the other workflows use. The run on the branch is green now: https://ci.example.invalid/runs/4812 shows all jobs passing.',
  ],
  [
    'Good. Now the logs: in production we cannot tell which request a log line belongs to.',
    "Each handler logs through `logger.info(...)` from `src/log.ts`, a thin wrapper over pino, with no request context. I added a middleware in `src/http/request-id.ts` that reads `x-request-id` from the incoming request (or makes a UUID when it is missing), stores it in an `AsyncLocalStorage`, and sets the same header on the response. `log.ts` now adds `requestId` from that storage to every line when there is one. Handlers did not need to change. I added a test that sends two overlapping requests and checks that each one's lines carry its own id, since the async storage is exactly where mix-ups happen.",
  ],
  [
    'Can you check why the /reports endpoint got slow? It takes 4 seconds on staging.',
    "I profiled it locally with the staging dump. The time goes into `buildReport` in `src/reports/build.ts`: for every order it calls `customers.findById`, which is one database query per order, 1,900 queries for a month's report. I replaced the loop with one `findByIds` call over the distinct customer ids and a Map lookup. Locally the endpoint went from 3.8 s to 240 ms on the same data. The query count test in `build.test.ts` now asserts two queries per report instead of counting nothing. I did not add caching: the numbers do not need it, and a cache would need invalidation on customer updates.",
  ],
  [
    'Nice. A dependency bot opened five pull requests this week. Which ones are safe to merge?',
    'I read the five. Three are patch releases with changelogs that only list bug fixes (pino, zod, undici); their CI runs are green, so they are safe. The fourth bumps typescript from 5.5 to 5.6: it builds cleanly and `tsc --noEmit` reports nothing new, so that is fine too. The fifth moves the test runner one major version up and its release notes say the default timeout changed from 5 s to 2 s. Two of our integration tests take about 3 s, so they would start failing intermittently. I suggest merging the first four now and handling the fifth in its own branch with the timeout set explicitly in the config.',
  ],
  [
    'Let us do that. Set the timeout explicitly and merge the test runner update.',
    'On the branch of the fifth pull request I set `testTimeout: 10000` in `vitest.config.ts`, with a comment saying why: the integration tests start a real HTTP server. The full suite passes, twice in a row, and the two slow tests take 3.1 s and 2.8 s. I merged the four safe pull requests first, rebased this one on top, and its CI is green. Everything is on main now. The lock file changed only in the lines of those five packages, which I checked with `git diff --stat package-lock.json` before each merge.',
  ],
  [
    'One flaky test keeps failing on CI, maybe once in ten runs: "expires sessions after 30 minutes".',
    'That test in `src/auth/session.test.ts` creates a session, then sets the clock forward with `vi.advanceTimersByTime(30 * 60 * 1000)` and expects it to be gone. The session store, though, compares against `Date.now()`, which fake timers only control when `vi.useFakeTimers({ toFake: [...] })` includes `Date`. It does not here, so the test depends on how long the real run takes around the boundary. I made the store take a clock function (defaulting to `Date.now`) and the test pass a fake one. I ran the test 500 times in a loop with no failure, where before it failed 47 times out of 500.',
  ],
  [
    'The README still documents the old environment variables. Please bring it up to date.',
    'The README listed `DB_URL`, `PORT` and `LOG_LEVEL`. The code, in `src/config.ts`, reads `DATABASE_URL`, `PORT`, `LOG_LEVEL` and the newer `REPORTS_MAX_MONTHS`, and refuses to start without `DATABASE_URL`. I rewrote the configuration section as a table of the four variables, each with its default and what happens when it is missing, and added a sentence on `.env.example`, which I also updated to match. I checked every variable name in the table against `config.ts` by searching for it, so the two agree today.',
  ],
  [
    'Last thing for now: add input validation to the POST /orders body.',
    'The handler in `src/http/orders.ts` trusted the body as is. I added a zod schema, `orderInput`, in `src/orders/input.ts`: at least one line, each with a product id, a positive integer quantity and no unit price (the price comes from the catalogue, never from the client); an optional coupon code of letters and digits. An invalid body now gets a 400 with the list of problems, each with its path, instead of a 500 from deep inside `computeTotal`. I added tests for an empty list, a negative quantity, a client-sent price and a malformed coupon, and one for a valid order to show it still goes through.',
  ],
];

/** The conversation's turns in order, user then assistant, exchange by exchange. */
export const FILL_TURNS: readonly ContextTurn[] = EXCHANGES.flatMap(([user, assistant]) => [
  { role: 'user' as const, content: user },
  { role: 'assistant' as const, content: assistant },
]);
