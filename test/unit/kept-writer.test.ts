import { KeptUtf8Writer } from '../../src/wire/kept-writer';

/**
 * One writer serves answer after answer: each answer is a buffer of its own, which later answers
 * never touch (a socket may still be sending it, a shadow route may be comparing it).
 */
describe('a kept writer', () => {
  const answer = (writer: KeptUtf8Writer, text: string) => {
    writer.start().text(text);
    return writer.finish();
  };

  test('an answer keeps its bytes while later answers are written', () => {
    const writer = new KeptUtf8Writer();
    const first = answer(writer, 'أحمد & <Ali>');
    const second = answer(writer, 'zzzzzzzzzzzzzzzzzzzzzzzz');
    expect(first.toString('utf8')).toBe('أحمد &amp; &lt;Ali&gt;');
    expect(second.toString('utf8')).toBe('zzzzzzzzzzzzzzzzzzzzzzzz');
    expect(first.length).toBe(Buffer.byteLength('أحمد &amp; &lt;Ali&gt;'));
    expect(first.buffer === second.buffer && first.byteOffset === second.byteOffset).toBe(false);
  });

  test('a write that threw leaves nothing in the next answer', () => {
    const writer = new KeptUtf8Writer();
    writer.start().markup('<half');
    expect(answer(writer, 'whole').toString('utf8')).toBe('whole');
  });

  test('an answer larger than the writer keeps is whole, and so is the next', () => {
    const writer = new KeptUtf8Writer();
    const large = 'x'.repeat(3 * 1024 * 1024);
    expect(answer(writer, large).toString('utf8')).toBe(large);
    expect(answer(writer, 'small').toString('utf8')).toBe('small');
  });
});
