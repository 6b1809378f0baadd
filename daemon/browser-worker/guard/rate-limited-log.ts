// A log line that can be provoked from outside (any local user can knock on the
// guard proxy's port) must not fill the daemon's log: at most one line per
// interval, the next one saying how many were left out meanwhile.

export function rateLimitedLog(log: (line: string) => void, intervalMs: number, now: () => number = Date.now): (line: string) => void {
  let lastAt = -Infinity;
  let skipped = 0;
  return (line) => {
    const at = now();
    if (at - lastAt < intervalMs) {
      skipped += 1;
      return;
    }
    lastAt = at;
    log(skipped === 0 ? line : `${line} (and ${skipped} more like it since the last such line)`);
    skipped = 0;
  };
}
