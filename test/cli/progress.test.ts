import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { TerminalProgress } from '../../src/cli/progress.js';
import { resetGitFetches } from '../../src/engine/sources/index.js';
import { read, repoTree } from '../apply-cli/fixtures.js';
import { tempTree } from '../helpers/fs.js';
import { tempRemote, useFreshGitCache } from '../helpers/git.js';

const ERASE = '\r\u001b[2K';

/** A terminal stream that records what was written. */
function terminal(columns = 80) {
  const writes: string[] = [];
  return { writes, columns, write: (text: string) => writes.push(text) };
}

describe('the progress line on a terminal', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('appears only once work runs longer than the delay, then follows it in place', () => {
    vi.useFakeTimers();
    const stream = terminal();
    const progress = new TerminalProgress(stream, { delayMs: 250 });
    progress.update('cloning git source https://example.com/t.git');
    progress.update('rendering template git (1/3)');
    expect(stream.writes).toEqual([]);
    vi.advanceTimersByTime(250);
    // Only the latest step is drawn: the first one was over before anyone could read it.
    expect(stream.writes).toEqual([`${ERASE}rendering template git (1/3)`]);
    progress.update('rendering template rspec (2/3)');
    expect(stream.writes.at(-1)).toBe(`${ERASE}rendering template rspec (2/3)`);
  });

  it('never appears for work that ends before the delay', () => {
    vi.useFakeTimers();
    const stream = terminal();
    const progress = new TerminalProgress(stream, { delayMs: 250 });
    progress.update('rendering template git (1/1)');
    progress.update(undefined);
    vi.advanceTimersByTime(1000);
    expect(stream.writes).toEqual([]);
  });

  it('is erased before other output and when the work is over, and redrawn by the next step', () => {
    vi.useFakeTimers();
    const stream = terminal();
    const progress = new TerminalProgress(stream, { delayMs: 0 });
    vi.advanceTimersByTime(1);
    progress.update('post-processing Gemfile');
    progress.erase();
    progress.erase();
    expect(stream.writes).toEqual([`${ERASE}post-processing Gemfile`, ERASE]);
    progress.update('post-processing Rakefile');
    progress.update(undefined);
    expect(stream.writes.slice(2)).toEqual([`${ERASE}post-processing Rakefile`, ERASE]);
  });

  it('takes a terminal of unknown width as 80 columns', () => {
    vi.useFakeTimers();
    const stream = terminal(0);
    const progress = new TerminalProgress(stream, { delayMs: 0 });
    vi.advanceTimersByTime(1);
    progress.update('rendering template github_actions (12/15)');
    expect(stream.writes).toEqual([`${ERASE}rendering template github_actions (12/15)`]);
  });

  it('stays on one line of the terminal', () => {
    vi.useFakeTimers();
    const stream = terminal(30);
    const progress = new TerminalProgress(stream, { delayMs: 0 });
    vi.advanceTimersByTime(1);
    progress.update('fetching git source https://example.com/a/very/long/path/templates.git');
    const line = stream.writes[0]!.slice(ERASE.length);
    expect(line).toBe('fetching git source https://…');
    expect(line.length).toBe(29);
  });
});

describe('what long commands report as progress', () => {
  useFreshGitCache();

  it('apply names the git clone, each template it renders and each post-processed file', async () => {
    const remote = tempRemote();
    remote.commit(repoTree());
    const root = tempTree({
      '.sync.yml': `pdk_template:
  version: 2
  template_sources:
    - type: git
      location: ${remote.url}
      ref: main
  templates: [extra]
  post:
    - { '*.txt': 'node -e "require(''fs'').appendFileSync(process.argv[1], ''post\\n'')"' }
`,
    });
    const io = memoryIo(root);
    expect(await main(['apply'], io)).toBe(0);
    expect(read(root, 'static.txt')).toBe('static\npost\n');
    expect(io.progressLog).toEqual([
      `cloning git source ${remote.url}`,
      // in dependency order, which is the order templates render in
      'rendering template extra (1/2)',
      'rendering template base (2/2)',
      'post-processing config.txt',
      'post-processing extra/extra.txt',
      'post-processing static.txt',
    ]);

    resetGitFetches();
    const again = memoryIo(root);
    expect(await main(['status', '--check'], again)).toBe(0);
    // The lock pins the commit: no fetch, only rendering.
    expect(again.progressLog).toEqual(['rendering template extra (1/2)', 'rendering template base (2/2)']);
  });
});
