import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { seeded } from '../env.js';
import type { BenchSite } from './site.js';

/**
 * Loopback pages (100 at most) of a realistic weight, generated from a fixed seed: each page is a catalogue of about
 * 1,900 elements (a mega-menu, 100 product cards, a table, a form, a long footer) and loads about 730 kB
 * of its own: a script that builds part of the page and works through a data set at load, a stylesheet of
 * some 1,600 rules, six photos (PNG), and two web fonts. Every resource has a URL of its own page, so no
 * page loads faster for the ones before it. The accessibility problems vary by page as on the light set
 * (missing alt text, low contrast, unlabelled inputs, empty buttons and links), many more of them a page.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Kinds of resources: the bytes of page n are those of variant n % VARIANTS (under page n's URLs). */
const VARIANTS = 10;
const PHOTOS = 6;

/** A real font file (TrueType) from an installed package: a valid font is not easily generated. */
function fontBytes(): Buffer {
  const dir = path.join(root, 'node_modules', 'playwright-core', 'lib', 'vite', 'traceViewer');
  const file = fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => f.endsWith('.ttf')) : undefined;
  if (!file) throw new Error(`no TrueType font found in ${dir} (playwright-core's trace viewer)`);
  return fs.readFileSync(path.join(dir, file));
}

/** A photo-like picture: smooth gradients under noise, so it compresses as little as a photo does. */
function photo(random: () => number, width: number, height: number): Buffer {
  const png = new PNG({ width, height, colorType: 2 });
  const [r0, g0, b0] = [random() * 255, random() * 255, random() * 255];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const noise = () => (random() - 0.5) * 90;
      png.data[i] = Math.max(0, Math.min(255, r0 + (x / width) * 80 + noise()));
      png.data[i + 1] = Math.max(0, Math.min(255, g0 + (y / height) * 80 + noise()));
      png.data[i + 2] = Math.max(0, Math.min(255, b0 - (x / width) * 60 + noise()));
      png.data[i + 3] = 255;
    }
  return PNG.sync.write(png, { colorType: 2 });
}

/** The page's script: a data set worked through at load, then a block of the page built from it. */
function script(random: () => number): string {
  const rows = Array.from({ length: 2400 }, (_, i) => ({
    id: i,
    sku: `SKU-${Math.floor(random() * 1e8).toString(36)}`,
    price: Math.round(random() * 50000) / 100,
    stock: Math.floor(random() * 40),
    tags: Array.from({ length: 3 }, () => Math.floor(random() * 1e6).toString(36)),
  }));
  const helpers = Array.from(
    { length: 120 },
    (_, i) =>
      `function f${i}(rows){let s=${i};for(const r of rows){s=(s*31+r.stock+${Math.floor(random() * 97)})%1000003}return s}`,
  ).join('\n');
  return `(function(){
var DATA=${JSON.stringify(rows)};
${helpers}
function ready(){
  var total=0;${Array.from({ length: 120 }, (_, i) => `total+=f${i}(DATA);`).join('')}
  var cheap=DATA.slice().sort(function(a,b){return a.price-b.price}).slice(0,12);
  var list=document.getElementById('deals');
  cheap.forEach(function(r){var li=document.createElement('li');var a=document.createElement('a');
    a.href='#'+r.sku;a.textContent=r.sku+' '+r.price.toFixed(2)+' €';li.appendChild(a);list.appendChild(li);});
  document.documentElement.setAttribute('data-checksum',String(total));
}
if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',ready);else ready();
})();\n`;
}

function stylesheet(random: () => number, n: number): string {
  const hex = () =>
    Math.floor(random() * 0xffffff)
      .toString(16)
      .padStart(6, '0');
  const rules = Array.from(
    { length: 800 },
    (_, i) =>
      `.u${i}{color:#${hex()};margin:${Math.floor(random() * 24)}px ${Math.floor(random() * 24)}px;` +
      `padding:${Math.floor(random() * 12)}px;border:1px solid #${hex()};line-height:${(1 + random()).toFixed(2)}}\n` +
      `.grid .card:nth-child(${i + 1}n) .u${i}:hover{background:#${hex()}}`,
  ).join('\n');
  return `@font-face{font-family:"Brand";src:url(/h/${n}/brand.ttf) format("truetype");font-display:block}
@font-face{font-family:"Icons";src:url(/h/${n}/icons.ttf) format("truetype");font-display:block}
body{font-family:"Brand",sans-serif;margin:0}nav li,footer li{display:inline-block;margin:2px 6px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(180px,1fr));gap:12px;list-style:none}
.card img{width:100%;height:auto}.icon{font-family:"Icons"}table{border-collapse:collapse}td,th{padding:4px}
${rules}\n`;
}

interface Variant {
  js: Buffer;
  css: (n: number) => Buffer;
  photos: Buffer[];
}

function variant(v: number): Variant {
  const random = seeded(1000 + v);
  const js = Buffer.from(script(random));
  const cssSeed = Math.floor(random() * 2 ** 31);
  const photos = Array.from({ length: PHOTOS }, () => photo(random, 160, 110));
  return { js, css: (n) => Buffer.from(stylesheet(seeded(cssSeed), n)), photos };
}

/** Page n's HTML: its problems from its own seed, so they vary from page to page. */
export function heavyPageHtml(n: number): string {
  const random = seeded(n + 1);
  const pick = (share: number) => random() < share;
  const menu = Array.from(
    { length: 8 },
    (_, m) =>
      `<li><a href="/h/${n}/m${m}">Department ${m + 1}</a><ul>` +
      Array.from(
        { length: 24 },
        (_, k) => `<li><a href="/h/${(n + m * 24 + k) % 100}">Category ${m + 1}.${k + 1}</a></li>`,
      ).join('') +
      '</ul></li>',
  ).join('');
  const cards = Array.from({ length: 100 }, (_, i) => {
    const alt = pick(0.06) ? '' : ` alt="Product ${n}-${i}"`;
    const price = pick(0.05)
      ? `<p class="price u${i}" style="color:#aaa;background:#bbb">${(i + 3) * 4} €</p>`
      : `<p class="price u${i}">${(i + 3) * 4} €</p>`;
    const button = pick(0.04)
      ? '<button type="button" class="icon"></button>'
      : '<button type="button">Add to cart</button>';
    return (
      `<li class="card"><img src="/h/${n}/photo-${i % PHOTOS}.png" width="180" height="120"${alt}>` +
      `<h3><a href="/h/${(n + i + 1) % 100}">Product ${n}-${i}</a></h3>${price}` +
      `<ul class="meta"><li><span class="icon" aria-hidden="true">★</span> <span>Rating</span> <b>${(i % 5) + 1}/5</b></li><li><span>Stock</span> <b>${i % 9}</b></li></ul>` +
      `${button}</li>`
    );
  }).join('');
  const rows = Array.from(
    { length: 20 },
    (_, r) =>
      `<tr><th scope="row">Size ${r + 1}</th>${Array.from({ length: 4 }, (_, c) => `<td>${(r + 1) * (c + 2)} cm</td>`).join('')}</tr>`,
  ).join('');
  const fields = Array.from({ length: 6 }, (_, f) =>
    pick(0.25)
      ? `<input type="text" name="f${f}">`
      : `<label>Field ${f + 1} <input type="text" name="f${f}"></label>`,
  ).join('');
  const footer = Array.from(
    { length: 60 },
    (_, k) => `<li><a href="/h/${(n + k * 7) % 100}">${pick(0.03) ? '' : `Help topic ${k + 1}`}</a></li>`,
  ).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Catalogue ${n}</title>
<link rel="stylesheet" href="/h/${n}/site.css"><script src="/h/${n}/app.js" defer></script></head><body>
<header><a href="/h/0">Shop</a><nav aria-label="Main"><ul>${menu}</ul></nav></header>
<main><h1>Catalogue ${n}</h1><h2>Deals</h2><ul id="deals"></ul><ul class="grid">${cards}</ul>
<h2>Sizes</h2><table><thead><tr><th>Size</th><th>S</th><th>M</th><th>L</th><th>XL</th></tr></thead><tbody>${rows}</tbody></table>
<form><h2>Contact</h2>${fields}<button type="submit">Send</button></form></main>
<footer><ul>${footer}</ul><p>© Shop</p></footer></body></html>`;
}

/** The heavy set on loopback: `pages` pages, page n at `/h/n`, its resources under `/h/n/`. */
export async function startHeavySite(pages = 100): Promise<BenchSite & { bytesPerPage: number }> {
  const font = fontBytes();
  const variants = Array.from({ length: VARIANTS }, (_, v) => variant(v));
  const resource = (n: number, name: string): { type: string; body: Buffer } | null => {
    const v = variants[n % VARIANTS];
    if (name === 'app.js') return { type: 'text/javascript', body: v.js };
    if (name === 'site.css') return { type: 'text/css', body: v.css(n) };
    if (name === 'brand.ttf' || name === 'icons.ttf') return { type: 'font/ttf', body: font };
    const photoMatch = /^photo-(\d+)\.png$/.exec(name);
    if (photoMatch && Number(photoMatch[1]) < PHOTOS)
      return { type: 'image/png', body: v.photos[Number(photoMatch[1])] };
    return null;
  };
  const server: Server = createServer((req, res) => {
    const m = /^\/h\/(\d+)(?:\/([\w.-]+))?$/.exec(req.url ?? '');
    const n = m ? Number(m[1]) : -1;
    const found = m && n < 100 ? (m[2] ? resource(n, m[2]) : null) : null;
    if (m && n < 100 && !m[2]) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(heavyPageHtml(n));
    } else if (found) {
      res.writeHead(200, { 'content-type': found.type, 'content-length': found.body.length });
      res.end(found.body);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const weight = (n: number) =>
    ['app.js', 'site.css', 'brand.ttf', 'icons.ttf', ...variants[0].photos.map((_, i) => `photo-${i}.png`)]
      .map((name) => resource(n, name)!.body.length)
      .reduce((a, b) => a + b, 0);
  const bytesPerPage = Math.min(...Array.from({ length: VARIANTS }, (_, v) => weight(v)));
  return {
    urls: Array.from({ length: pages }, (_, i) => `${base}/h/${i}`),
    bytesPerPage,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
