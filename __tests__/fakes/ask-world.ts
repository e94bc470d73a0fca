/**
 * What an author-call end-to-end file sets up once: the simulated model answering each query with
 * its behaviour (request bodies kept), started before the file's tests and closed after them, and
 * the settings of one call through the agent's real executable pointed at it.
 */
import { afterAll, beforeAll } from 'vitest';
import type { AskSettings } from '../../src/agents/agent.js';
import {
  type Behaviour,
  type RecordedRequest,
  type SimulatedModel,
  startSimulatedModel,
} from '../../src/simulated/model.js';

export interface AskWorld {
  /** The running model (set once the file's `beforeAll` ran). */
  readonly model: SimulatedModel;
  /** One call's settings: `bin`, the agent's environment, no retries, a 60 s bound; then `over`. */
  settings(over?: Partial<AskSettings>): AskSettings;
  /** The requests that carried `query`. */
  requestsFor(query: string): RecordedRequest[];
}

export function useAskWorld(
  bin: string,
  behaviours: Record<string, Behaviour>,
  /** The agent's environment, pointed at the model's `url`. */
  env: (url: string) => NodeJS.ProcessEnv,
): AskWorld {
  let model: SimulatedModel | undefined;
  beforeAll(async () => {
    model = await startSimulatedModel({
      chunkDelayMs: 0,
      recordBodies: true,
      script: (req) => behaviours[req.query],
    });
  });
  afterAll(async () => {
    await model?.close();
  });
  const running = (): SimulatedModel => {
    if (model === undefined) throw new Error('the simulated model starts in beforeAll');
    return model;
  };
  return {
    get model() {
      return running();
    },
    settings: (over = {}) => ({
      bin,
      env: env(running().url),
      maxRetries: 0,
      timeoutMs: 60_000,
      ...over,
    }),
    requestsFor: (query) => running().requests.filter((r) => r.view?.query === query),
  };
}
