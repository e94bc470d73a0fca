/** How this platform can hold off sleep for as long as skilltrigger runs. */
export type SleepPlan =
  | { kind: 'holder'; tool: 'caffeinate' | 'systemd-inhibit'; command: string; args: string[] }
  | { kind: 'none'; platform: string };

/**
 * The holder's command line. Both watch skilltrigger's pid themselves, so the holder ends with
 * skilltrigger even when skilltrigger is killed outright and its exit handler never runs:
 * caffeinate through `-w`, systemd-inhibit through a shell loop as its held command (a bare
 * `sleep infinity` would outlive a killed skilltrigger).
 */
export function sleepPlan(platform: NodeJS.Platform, pid: number): SleepPlan {
  switch (platform) {
    case 'darwin':
      // -i: no idle sleep; -s: no system sleep on AC power; -w: until that pid exits.
      return {
        kind: 'holder',
        tool: 'caffeinate',
        command: 'caffeinate',
        args: ['-i', '-s', '-w', String(pid)],
      };
    case 'linux':
      return {
        kind: 'holder',
        tool: 'systemd-inhibit',
        command: 'systemd-inhibit',
        args: [
          '--what=idle:sleep',
          '--who=skilltrigger',
          '--why=measuring skill triggering; a suspended machine turns runs into timeouts',
          '--mode=block',
          'sh',
          '-c',
          'while kill -0 "$1" 2>/dev/null; do sleep 1; done',
          'skilltrigger-sleep-watch',
          String(pid),
        ],
      };
    default:
      return { kind: 'none', platform };
  }
}
