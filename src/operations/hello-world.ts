import { defineOperation } from './operation';

export const helloWorld = defineOperation('HelloWorld', {
  policy: { group: 'public', audit: 'none', effect: 'reads', bounds: {}, records: {} },
  decode: () => ({}),
  run: () => 'Hello World',
});
