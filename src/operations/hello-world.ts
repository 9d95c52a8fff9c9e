import { defineOperation } from './operation';

export const helloWorld = defineOperation('HelloWorld', {
  decode: () => ({}),
  run: () => 'Hello World',
});
