import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The default report, then how many tests skipped and why (a failure under BETTERWRIGHT_TEST_REQUIRE_ALL=1).
    reporters: ["default", "./test/helpers/skip-report.ts"],
    projects: [
      { test: { name: "unit", include: ["test/unit/**/*.test.ts"], testTimeout: 10_000 } },
      { test: { name: "integration", include: ["test/integration/**/*.test.ts"], testTimeout: 30_000 } },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/helpers/bundle-cli-setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          // Each e2e file starts real daemons and Chromium; two cores cannot host many at once.
          maxWorkers: 1,
          fileParallelism: false,
        },
      },
    ],
  },
});
