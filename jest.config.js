/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Type checking is done once by `tsc --noEmit` in `npm test`; per-file transpiling keeps jest fast.
  transform: {
    '^.+\\.ts$': ['ts-jest', {}],
    // oauth4webapi ships ES modules only, which node (20.19+) requires natively and jest does not: compiled for jest.
    '^.+/oauth4webapi/.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!oauth4webapi/)'],
  // Interop tests generate and compile real clients (javac, mcs, gSOAP); they take a while.
  testTimeout: 120000,
  maxWorkers: 2,
};
