import { hasDisplay, openReport } from '../../cli/open-report.js';

describe('--open: the report in the default browser, or where it is', () => {
  test('a display is there outside CI: on macOS and Windows, on Linux with X11, Wayland or WSL', () => {
    expect(hasDisplay({}, 'darwin')).toBe(true);
    expect(hasDisplay({}, 'win32')).toBe(true);
    expect(hasDisplay({}, 'linux')).toBe(false);
    expect(hasDisplay({ DISPLAY: ':0' }, 'linux')).toBe(true);
    expect(hasDisplay({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBe(true);
    expect(hasDisplay({ WSL_DISTRO_NAME: 'Debian' }, 'linux')).toBe(true);
    expect(hasDisplay({ CI: 'true', DISPLAY: ':0' }, 'linux')).toBe(false);
    expect(hasDisplay({ CI: 'true' }, 'darwin')).toBe(false);
    expect(hasDisplay({ CI: 'false', DISPLAY: ':0' }, 'linux')).toBe(true);
  });

  test('opens the file where it can; says where the file is when it cannot, and never fails the run', async () => {
    const lines: string[] = [];
    const opened: string[] = [];
    const opener = (file: string) => {
      opened.push(file);
      return Promise.resolve();
    };
    await openReport('/r/report.html', (l) => lines.push(l), { DISPLAY: ':0' }, 'linux', opener);
    expect(opened).toEqual(['/r/report.html']);
    expect(lines).toEqual([]);

    await openReport('/r/report.html', (l) => lines.push(l), { CI: 'true' }, 'linux', opener);
    expect(opened).toHaveLength(1);
    expect(lines).toEqual(['No display to open the HTML report in: open /r/report.html in a browser.']);

    const failing = () => Promise.reject(new Error('spawn xdg-open ENOENT'));
    await openReport('/r/report.html', (l) => lines.push(l), { DISPLAY: ':0' }, 'linux', failing);
    expect(lines[1]).toBe(
      'Could not open the HTML report (spawn xdg-open ENOENT): open /r/report.html in a browser.',
    );
  });
});
