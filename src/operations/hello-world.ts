import { defineOperation } from './operation';

export const helloWorld = defineOperation('HelloWorld', {
  policy: { group: 'public', audit: 'none', effect: 'reads', bounds: {} },
  decode: () => ({}),
  run: () => 'Hello World',
});
