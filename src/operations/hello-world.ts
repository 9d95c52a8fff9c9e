import { defineOperation } from './operation';

export const helloWorld = defineOperation({
  name: 'HelloWorld',
  decode: () => ({}),
  run: () => 'Hello World',
});
