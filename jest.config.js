/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Type checking is done once by `tsc --noEmit` in `npm test`; per-file transpiling keeps jest fast.
  transform: { '^.+\\.ts$': ['ts-jest', {}] },
  // Interop tests generate and compile real clients (javac, mcs, gSOAP); they take a while.
  testTimeout: 120000,
  maxWorkers: 2,
};
