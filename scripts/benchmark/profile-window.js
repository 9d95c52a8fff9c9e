/**
 * Preloaded into a service a benchmark profiles (node --require): V8's sampling profiler over a
 * window the benchmark chooses rather than the whole life of the process, so that start-up and
 * warm-up are left out. The first SIGUSR2 starts the profiler and then creates PROFILE_FILE.started;
 * the next stops it and writes the profile (Chrome's .cpuprofile format) to PROFILE_FILE.
 *
 * Plain JavaScript, run by node directly; the service's code is untouched.
 */
const inspector = require('node:inspector');
const { writeFileSync } = require('node:fs');

const file = process.env.PROFILE_FILE;
if (!file) throw new Error('profile-window.js needs PROFILE_FILE');
const session = new inspector.Session();
session.connect();
let profiling = false;

const post = (method, parameters = {}) =>
  new Promise((resolve, reject) =>
    session.post(method, parameters, (error, result) => (error ? reject(error) : resolve(result))),
  );

process.on('SIGUSR2', async () => {
  if (!profiling) {
    profiling = true;
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 200 });
    await post('Profiler.start');
    writeFileSync(`${file}.started`, '');
    return;
  }
  profiling = false;
  const { profile } = await post('Profiler.stop');
  writeFileSync(file, JSON.stringify(profile));
});
