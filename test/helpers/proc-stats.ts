// Resource readings from /proc, shared with the soak benchmark.
export { fdCount, mib, MiB, peakRssBytes, rssBytes } from "../../bench/proc-stats.js";
