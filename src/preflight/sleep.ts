import { type GateResult, gateResult } from '../agents/gates.js';
import { startSleepHolder } from '../system/sleep-holder.js';
import { sleepPlan } from './sleep-rule.js';

/** A running sleep holder; `release()` ends it (also done automatically when the process exits). */
export interface SleepHolder {
  pid: number;
  tool: string;
  release(): void;
}

export interface SleepOptions {
  platform?: NodeJS.Platform;
  /** The pid the holder watches (default: this process). */
  pid?: number;
  env: NodeJS.ProcessEnv;
  /** How long the holder must stay up to count as working (a refused inhibitor exits at once). */
  probeMs?: number;
}

const ADVICE =
  'keep the machine awake while measuring (a suspended machine turns runs into timeouts and costs the verdict): disable suspend in the power settings, or run skilltrigger under an inhibitor yourself';

/**
 * What systemd-inhibit says where there is no system bus to ask (a container, WSL without systemd).
 * There sleep cannot be held by anyone inside, so the gate says so in one line, without advice
 * that nobody inside can follow, instead of repeating the fix on every run.
 */
const NO_SYSTEM_BUS = /Failed to connect to bus|has not been booted with systemd/i;

export const NO_BUS_REASON =
  'sleep cannot be held off here: there is no system bus (a container?), so keep its host awake while measuring';

/**
 * The sleep gate: start the platform's holder and check it stays up. A missing or refusing
 * holder only warns (the gate cannot make a machine stay awake; it can say so). The holder's process
 * is the sleep-holder adapter's.
 */
export async function holdOffSleep(
  options: SleepOptions,
): Promise<{ result: GateResult; holder?: SleepHolder }> {
  const plan = sleepPlan(options.platform ?? process.platform, options.pid ?? process.pid);
  const ci = options.env.CI === 'true' || options.env.CI === '1';
  const unavailable = (reason: string): { result: GateResult } =>
    ci
      ? { result: gateResult('sleep', 'ok', `${reason}; not needed on a CI runner (CI is set)`) }
      : { result: gateResult('sleep', 'warn', reason, ADVICE) };
  if (plan.kind === 'none') return unavailable(`cannot hold off sleep on ${plan.platform}`);

  const probe = await startSleepHolder(plan.command, plan.args, options.env, options.probeMs ?? 500);
  switch (probe.kind) {
    case 'missing':
      return unavailable(`${plan.tool} was not found on PATH, so sleep is not held off`);
    case 'exited':
      if (plan.tool === 'systemd-inhibit' && NO_SYSTEM_BUS.test(probe.said)) {
        return {
          result: ci
            ? gateResult('sleep', 'ok', `${NO_BUS_REASON}; not needed on a CI runner (CI is set)`)
            : gateResult('sleep', 'warn', NO_BUS_REASON),
        };
      }
      return unavailable(
        `${plan.tool} refused to hold off sleep (exit ${probe.code ?? '?'}${probe.said ? `: ${probe.said}` : ''})`,
      );
    case 'not-started':
      return unavailable(`${plan.tool} did not start`);
    case 'running':
      break;
  }
  return {
    result: gateResult('sleep', 'ok', `sleep held off by ${plan.tool} until skilltrigger exits`),
    holder: { pid: probe.pid, tool: plan.tool, release: probe.release },
  };
}
