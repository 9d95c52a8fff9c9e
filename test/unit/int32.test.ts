import { INT32_FORMAT_REASON, INT32_RANGE_REASON, parseInt32 } from '../../src/contract/int32';

describe('.NET Int32 parsing', () => {
  test.each([
    ['12', 12],
    [' 12\n', 12],
    ['+12', 12],
    ['-12', -12],
    ['-0', 0],
    ['0002147483647', 2147483647],
    ['-2147483648', -2147483648],
  ])('%p is %p', (text, value) => {
    expect(parseInt32(text)).toEqual({ ok: true, value });
  });

  test.each(['', ' ', 'abc', '1.5', '1e3', '0x10', '1 2', '--1', '١٢'])('%p is not in a correct format', (text) => {
    expect(parseInt32(text)).toEqual({ ok: false, reason: INT32_FORMAT_REASON });
  });

  test.each(['2147483648', '-2147483649', '99999999999999999999'])('%p is out of range', (text) => {
    expect(parseInt32(text)).toEqual({ ok: false, reason: INT32_RANGE_REASON });
  });
});
