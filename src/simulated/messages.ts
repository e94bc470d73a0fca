/**
 * The simulated model's Messages API side: `POST /v1/messages` as the `claude` CLI calls it,
 * answered with the per-query scripts and plans (plan.ts, script.ts), written by respond.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJsonBody, sendError, sleep } from './http.js';
import type { Plan } from './plan.js';
import type { SimulatedPrompt } from './prompt-cache.js';
import { parseRequestView, type RequestView, type StubRules } from './request.js';
import { type AnswerStream, type AnswerUsage, respond } from './respond.js';
import { planTurn, type RunState, type TurnRecord } from './turn.js';

/** What the server shares with this handler: the scripts, the run state, the cache, the pacing. */
export interface MessagesState extends RunState, StubRules {
  recordBodies: boolean;
  stream: AnswerStream;
  /** Where the stub file lives, for `read-stub`. */
  layout: 'command' | 'skill';
  /** The prompt side of an answer's usage, from the body and its length. */
  cachedPrompt: (body: unknown, chars: number) => SimulatedPrompt;
  /** How long the model thinks before it answers. */
  answerDelayMs?: number | undefined;
}

/** The fields of a recorded request this handler fills in (model.ts's RecordedRequest). */
export interface MessagesRecord extends TurnRecord {
  view?: RequestView;
  body?: unknown;
  usage?: AnswerUsage;
}

/** Answers one `POST /v1/messages`; the record gets the view, the behaviour, the turn and the usage. */
export async function handleMessages(
  req: IncomingMessage,
  res: ServerResponse,
  record: MessagesRecord,
  state: MessagesState,
): Promise<void> {
  const request = await readJsonBody(req);
  if (request === undefined) {
    sendError(res, 400, 'invalid_request_error', 'The request body is not valid JSON.');
    return;
  }
  const { raw, body } = request;
  if (state.recordBodies) record.body = body;
  const view = parseRequestView(body, { isStub: state.isStub, isCompetitor: state.isCompetitor });
  if (typeof view === 'string') {
    sendError(res, 400, 'invalid_request_error', view);
    return;
  }
  record.view = view;
  const prompt = state.cachedPrompt(body, raw.length);

  const turn = planTurn(view, state, record, state.layout);
  if (turn.kind === 'script-failed') {
    sendError(res, 500, 'api_error', turn.message, true);
    return;
  }
  const plan = view.followUp ? turn.plan : withEchoedKey(turn.plan, record, req.headers['x-api-key']);
  if (state.answerDelayMs) await sleep(state.answerDelayMs);
  await respond(res, plan, view, prompt, record, state.stream);
}

/**
 * A first turn's API error that a script asks to echo the key (a gateway that quotes the refused
 * credential), so the tests can see the key masked wherever the message is shown.
 */
function withEchoedKey(plan: Plan, record: TurnRecord, key: string | string[] | undefined): Plan {
  const { behaviour } = record;
  if (plan.kind !== 'error' || behaviour?.kind !== 'api-error' || behaviour.echoApiKey !== true) {
    return plan;
  }
  return {
    ...plan,
    message: `${plan.message} (gateway: upstream refused the credential ${String(key ?? 'none')})`,
  };
}
