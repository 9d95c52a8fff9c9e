/**
 * A one-line progress bar for a terminal; silent when the output is not a terminal, so logs and
 * CI stay clean.
 */
export function progressBar(stream: NodeJS.WriteStream, label: string): (done: number, total: number) => void {
  if (!stream.isTTY) return () => undefined;
  const width = 30;
  let lastDrawn = -1;
  return (done, total) => {
    const percent = total === 0 ? 100 : Math.floor((done * 100) / total);
    if (percent === lastDrawn) return;
    lastDrawn = percent;
    const filled = Math.round((percent * width) / 100);
    stream.write(`\r${label} [${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${percent}% (${done}/${total})`);
    if (done >= total) stream.write('\n');
  };
}
