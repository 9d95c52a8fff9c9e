/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Interop tests generate and compile real clients (javac, mcs, gSOAP); they take a while.
  testTimeout: 120000,
  maxWorkers: 2,
};
