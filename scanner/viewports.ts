import { devices } from 'playwright-core';
import { z } from 'zod';

/**
 * The sizes and devices a page is scanned at: `WIDTHxHEIGHT` in CSS pixels, or a device of playwright-core's
 * list (`iPhone 13`, `Pixel 7`: its viewport, screen, scale factor, touch, mobile mode and user agent). A
 * viewport's `name` is part of its issues' identity (core/matching/fingerprint.ts `viewportPageKey`), so it is
 * written one way: `390x844`, or the device's name as playwright-core spells it.
 */
export interface Viewport {
  name: string;
  width: number;
  height: number;
  /** A device's own; a plain size keeps the browser's (a scale of 1, desktop, no touch). */
  device?: {
    screen?: { width: number; height: number };
    deviceScaleFactor: number;
    isMobile: boolean;
    hasTouch: boolean;
    userAgent: string;
  };
}

/** What one side of a `WIDTHxHEIGHT` viewport may be, in CSS pixels. */
export const VIEWPORT_SIDE = { min: 100, max: 10_000 } as const;
const SIZE = /^(\d{1,6})x(\d{1,6})$/i;

/** The device names by their lower-case spelling: `iphone 13` finds `iPhone 13`. */
let byLowerName: Map<string, string> | undefined;
function deviceName(text: string): string | undefined {
  byLowerName ??= new Map(Object.keys(devices).map((name) => [name.toLowerCase(), name]));
  return byLowerName.get(text.replace(/\s+/g, ' ').toLowerCase());
}

/** A few device names that start like the unknown one (newest first), so the error says what was meant. */
function nearNames(text: string): string[] {
  const wanted = text.trim().toLowerCase();
  const common = (name: string) => {
    let n = 0;
    while (n < wanted.length && name[n]?.toLowerCase() === wanted[n]) n++;
    return n;
  };
  // The list runs from older devices to newer: among equally near names, the newest are likelier meant.
  const names = Object.keys(devices)
    .filter((n) => !/ landscape$/.test(n))
    .reverse()
    .map((name) => ({ name, near: common(name) }))
    .filter((n) => n.near >= 3)
    .sort((a, b) => b.near - a.near);
  return names.length > 0
    ? names.slice(0, 5).map((n) => n.name)
    : ['iPhone 13', 'Pixel 7', 'iPad Mini', 'Desktop Chrome'];
}

/** A viewport from its text, or the problem with it (for each face's usage error, which names the setting). */
export function parseViewport(text: string): Viewport | string {
  const trimmed = text.trim();
  const size = SIZE.exec(trimmed);
  if (size) {
    const [width, height] = [Number(size[1]), Number(size[2])];
    if ([width, height].some((n) => n < VIEWPORT_SIDE.min || n > VIEWPORT_SIDE.max))
      return `"${trimmed}": each side must be ${VIEWPORT_SIDE.min} to ${VIEWPORT_SIDE.max} CSS pixels`;
    return { name: `${width}x${height}`, width, height };
  }
  const name = deviceName(trimmed);
  if (!name) {
    const near = nearNames(trimmed)
      .map((n) => `"${n}"`)
      .join(', ');
    return `"${trimmed}" is neither WIDTHxHEIGHT nor a device Playwright knows (such as ${near})`;
  }
  const d = devices[name];
  // The list carries each device's screen, which its type leaves out.
  const screen = (d as { screen?: { width: number; height: number } }).screen;
  return {
    name,
    width: d.viewport.width,
    height: d.viewport.height,
    device: {
      ...(screen ? { screen } : {}),
      deviceScaleFactor: d.deviceScaleFactor,
      isMobile: d.isMobile,
      hasTouch: d.hasTouch,
      userAgent: d.userAgent,
    },
  };
}

/** Several viewports, each once (by name), in the order given; the first problem is thrown by `fail`. */
export function parseViewports(texts: readonly string[], fail: (problem: string) => Error): Viewport[] {
  const out = new Map<string, Viewport>();
  for (const text of texts) {
    const v = parseViewport(text);
    if (typeof v === 'string') throw fail(v);
    if (!out.has(v.name)) out.set(v.name, v);
  }
  return [...out.values()];
}

/** Viewports as a configuration file lists them: at least one, each `390x844` or a device's name. */
export const ViewportsSchema = z
  .array(
    z.string().superRefine((text, ctx) => {
      const read = parseViewport(text);
      if (typeof read === 'string') ctx.addIssue({ code: 'custom', message: read });
    }),
  )
  .min(1, 'must name at least one viewport');
