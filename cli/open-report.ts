import open from 'open';

/**
 * `--open`: the written report in the user's default browser (the `open` package: xdg-open, macOS's open,
 * Windows' Start-Process, WSL's Windows side). Where there is no display to show it in (CI, or a Linux
 * session without X11 or Wayland), or the opener fails, the run says where the file is instead: opening
 * the report is a convenience and never fails the run.
 */

export type Opener = (file: string) => Promise<unknown>;

/** Whether a browser window could be shown: not in CI, and on Linux only with X11, Wayland or WSL. */
export function hasDisplay(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): boolean {
  if (env.CI && env.CI !== 'false') return false;
  if (platform === 'darwin' || platform === 'win32') return true;
  return !!(env.DISPLAY || env.WAYLAND_DISPLAY || env.WSL_DISTRO_NAME);
}

export async function openReport(
  file: string,
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  opener: Opener = open,
): Promise<void> {
  if (!hasDisplay(env, platform)) {
    log(`No display to open the HTML report in: open ${file} in a browser.`);
    return;
  }
  try {
    await opener(file);
  } catch (e) {
    log(
      `Could not open the HTML report (${e instanceof Error ? e.message : String(e)}): open ${file} in a browser.`,
    );
  }
}
