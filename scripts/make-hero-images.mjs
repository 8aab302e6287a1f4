// Draws the five default hero images (flat illustrations of the trade) and writes them as WebP.
// Run `node scripts/make-hero-images.mjs` after changing a scene; the output is committed.
// The business replaces them by putting its own photos in HERO_IMAGES_DIR (no rebuild needed).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/server/assets/hero');
const W = 1920;
const H = 1080;

const svg = (defs, body) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${defs}</defs>${body}</svg>`;

const sky = (id, stops) =>
  `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1">${stops.map(([o, c]) => `<stop offset="${o}" stop-color="${c}"/>`).join('')}</linearGradient>`;

// 1. A Sacramento craftsman home at golden hour, ladder against the porch.
const home = svg(
  sky('s', [
    [0, '#f6b26b'],
    [0.55, '#f9d8a6'],
    [1, '#fbe9cf'],
  ]) +
    `<linearGradient id="roof" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#5b3a29"/><stop offset="1" stop-color="#3e2719"/></linearGradient>`,
  `<rect width="${W}" height="${H}" fill="url(#s)"/>
  <circle cx="1500" cy="330" r="120" fill="#fff4d6" opacity="0.9"/>
  <path d="M0 720 Q300 600 640 690 T1300 660 T1920 700 V1080 H0Z" fill="#9fb87a"/>
  <path d="M0 800 Q420 720 900 790 T1920 770 V1080 H0Z" fill="#7d9a5a"/>
  <g transform="translate(560 360)">
    <rect x="40" y="250" width="760" height="360" fill="#f3efe6"/>
    <path d="M0 260 L420 40 L840 260Z" fill="url(#roof)"/>
    <rect x="360" y="120" width="120" height="90" fill="#dbe9f5" stroke="#fff" stroke-width="10"/>
    <rect x="110" y="330" width="150" height="130" fill="#dbe9f5" stroke="#fff" stroke-width="12"/>
    <rect x="580" y="330" width="150" height="130" fill="#dbe9f5" stroke="#fff" stroke-width="12"/>
    <rect x="360" y="380" width="120" height="230" fill="#1f4e79"/>
    <circle cx="455" cy="500" r="8" fill="#f2c14e"/>
    <rect x="20" y="600" width="800" height="24" fill="#cfc6b4"/>
    <rect x="70" y="470" width="18" height="140" fill="#fff"/><rect x="752" y="470" width="18" height="140" fill="#fff"/>
    <path d="M40 470 H800" stroke="#fff" stroke-width="16"/>
  </g>
  <g stroke="#c0581a" stroke-width="14" stroke-linecap="round">
    <line x1="1430" y1="980" x2="1300" y2="560"/><line x1="1510" y1="980" x2="1380" y2="560"/>
    ${[0, 1, 2, 3, 4, 5].map((i) => `<line x1="${1420 - i * 21.5}" y1="${930 - i * 70}" x2="${1500 - i * 21.5}" y2="${930 - i * 70}"/>`).join('')}
  </g>
  <circle cx="300" cy="640" r="120" fill="#5f7d3f"/><rect x="285" y="700" width="30" height="140" fill="#5b3a29"/>
  <circle cx="1720" cy="650" r="150" fill="#5f7d3f"/><rect x="1703" y="720" width="34" height="150" fill="#5b3a29"/>`,
);

// 2. Fresh paint: a roller mid-stroke on a two-tone wall, tray and drop cloth.
const paint = svg(
  `<linearGradient id="w1" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#d9e4ec"/><stop offset="1" stop-color="#c8d6e0"/></linearGradient>
   <linearGradient id="w2" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#2f6f8f"/><stop offset="1" stop-color="#245a75"/></linearGradient>`,
  `<rect width="${W}" height="${H}" fill="url(#w1)"/>
  <path d="M0 0 H1080 C1060 300 1110 620 1070 860 H0Z" fill="url(#w2)"/>
  <rect x="0" y="860" width="${W}" height="220" fill="#e9e2d3"/>
  <path d="M0 900 Q500 860 960 910 T1920 890 V1080 H0Z" fill="#f5f1e8"/>
  <rect x="0" y="840" width="${W}" height="30" fill="#fff"/>
  <g transform="translate(1010 250) rotate(8)">
    <rect x="0" y="0" width="150" height="300" rx="40" fill="#2f6f8f"/>
    <rect x="12" y="12" width="126" height="276" rx="34" fill="#3a86ad"/>
    <path d="M150 150 H230 V520" fill="none" stroke="#9aa5ad" stroke-width="18" stroke-linejoin="round"/>
    <rect x="205" y="510" width="50" height="260" rx="22" fill="#e0632a"/>
  </g>
  <g transform="translate(1320 900)">
    <path d="M0 0 H360 L320 110 H40Z" fill="#b9c3ca"/>
    <path d="M30 20 H330 L300 80 H60Z" fill="#2f6f8f"/>
  </g>
  <g transform="translate(300 880)"><rect x="0" y="0" width="190" height="150" rx="12" fill="#e0632a"/><rect x="0" y="0" width="190" height="36" rx="10" fill="#c0501e"/><path d="M40 0 Q95 -80 150 0" fill="none" stroke="#7a8288" stroke-width="10"/></g>`,
);

// 3. Tile: a fresh backsplash in perspective, trowel and spacers.
const tile = svg(
  `<linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#eef3f4"/><stop offset="1" stop-color="#d7e0e2"/></linearGradient>`,
  `<rect width="${W}" height="${H}" fill="url(#bg)"/>
  <g>${Array.from({ length: 8 }, (_, r) =>
    Array.from({ length: 14 }, (_, c) => {
      const x = c * 140 + (r % 2) * 70 - 70;
      const y = r * 100;
      const shade = ['#ffffff', '#f3f7f8', '#e8f0f2'][(r * 3 + c) % 3];
      return `<rect x="${x + 6}" y="${y + 6}" width="128" height="88" rx="6" fill="${shade}" stroke="#c5d1d5" stroke-width="2"/>`;
    }).join(''),
  ).join('')}</g>
  <rect x="0" y="800" width="${W}" height="280" fill="#6d4c3d"/>
  <rect x="0" y="800" width="${W}" height="26" fill="#8a6451"/>
  <g transform="translate(1180 700) rotate(-14)">
    <path d="M0 0 H420 L390 120 H30Z" fill="#9aa5ad"/>
    ${Array.from({ length: 9 }, (_, i) => `<path d="M${30 + i * 42} 120 l21 26 l21 -26" fill="#9aa5ad"/>`).join('')}
    <rect x="170" y="-110" width="80" height="110" rx="10" fill="#7a8288"/>
    <rect x="150" y="-210" width="120" height="110" rx="40" fill="#e0632a"/>
  </g>
  ${[
    [380, 900],
    [460, 940],
    [560, 890],
    [640, 960],
  ]
    .map(([x, y]) => `<path d="M${x} ${y} h14 v-14 h14 v14 h14 v14 h-14 v14 h-14 v-14 h-14z" fill="#2f6f8f"/>`)
    .join('')}`,
);

// 4. Pressure washing: half the patio clean, a fan of spray.
const wash = svg(
  `<linearGradient id="sk" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#9cc9e8"/><stop offset="1" stop-color="#d8ecf7"/></linearGradient>`,
  `<rect width="${W}" height="${H}" fill="url(#sk)"/>
  <rect x="0" y="420" width="${W}" height="80" fill="#7d9a5a"/>
  <path d="M0 500 H1920 V1080 H0Z" fill="#8c8172"/>
  ${Array.from({ length: 7 }, (_, r) =>
    Array.from({ length: 9 }, (_, c) => {
      const clean = c * 220 + r * 30 < 900;
      return `<rect x="${c * 230 - 40 + (r % 2) * 115}" y="${510 + r * 84}" width="222" height="76" rx="4" fill="${clean ? '#d9d2c5' : '#8c8172'}" stroke="${clean ? '#c4bbab' : '#776d5f'}" stroke-width="3"/>`;
    }).join(''),
  ).join('')}
  <g opacity="0.85" stroke="#ffffff" stroke-linecap="round">
    ${Array.from({ length: 14 }, (_, i) => `<line x1="1120" y1="420" x2="${900 + i * 34}" y2="${820 + (i % 3) * 20}" stroke-width="${3 + (i % 3)}" stroke-dasharray="${20 + i * 3} 14"/>`).join('')}
  </g>
  <g transform="translate(1120 420)">
    <line x1="0" y1="0" x2="420" y2="-300" stroke="#3b3f44" stroke-width="22" stroke-linecap="round"/>
    <rect x="360" y="-330" width="120" height="70" rx="16" fill="#f2c14e" transform="rotate(-35 420 -300)"/>
    <path d="M460 -300 C620 -200 700 -60 760 200" fill="none" stroke="#2b2f33" stroke-width="16"/>
  </g>
  <rect x="1620" y="560" width="220" height="300" rx="26" fill="#e0632a"/><circle cx="1665" cy="880" r="34" fill="#2b2f33"/><circle cx="1795" cy="880" r="34" fill="#2b2f33"/>`,
);

// 5. The workbench: pegboard with the tools of the trade.
const tools = svg(
  `<pattern id="peg" width="60" height="60" patternUnits="userSpaceOnUse"><rect width="60" height="60" fill="#c9a77c"/><circle cx="30" cy="30" r="5" fill="#8f7050"/></pattern>`,
  `<rect width="${W}" height="${H}" fill="url(#peg)"/>
  <rect x="0" y="820" width="${W}" height="260" fill="#5b3a29"/><rect x="0" y="820" width="${W}" height="30" fill="#74503a"/>
  <g transform="translate(360 200) rotate(-20)"><rect x="-20" y="0" width="40" height="420" rx="14" fill="#7a8288"/><path d="M-70 -10 a70 70 0 1 1 140 0 l-40 0 l0 -50 l-60 0 l0 50z" fill="#7a8288"/><path d="M-60 420 a60 60 0 1 0 120 0 l-30 0 l0 40 l-60 0 l0 -40z" fill="#7a8288"/></g>
  <g transform="translate(760 180)"><rect x="-18" y="90" width="36" height="460" rx="12" fill="#8a5a3b"/><rect x="-110" y="20" width="220" height="90" rx="16" fill="#3b3f44"/><path d="M110 40 q60 10 70 60 l-70 -10z" fill="#3b3f44"/></g>
  <g transform="translate(1120 200) rotate(8)"><rect x="-28" y="0" width="56" height="200" rx="24" fill="#e0632a"/><rect x="-8" y="200" width="16" height="300" fill="#9aa5ad"/><path d="M-8 500 l8 40 l8 -40z" fill="#9aa5ad"/></g>
  <g transform="translate(1460 260)"><rect x="-140" y="0" width="260" height="180" rx="30" fill="#f2c14e"/><rect x="120" y="60" width="140" height="56" rx="10" fill="#3b3f44"/><rect x="-80" y="170" width="90" height="230" rx="24" fill="#3b3f44"/><rect x="-110" y="380" width="150" height="70" rx="16" fill="#1f4e79"/></g>
  <g transform="translate(560 900)"><circle r="80" fill="#f2c14e"/><circle r="34" fill="#3b3f44"/><rect x="60" y="-12" width="260" height="24" fill="#f6e7a8"/></g>
  <g transform="translate(1250 880)"><rect width="360" height="60" rx="10" fill="#2f6f8f"/><rect x="30" y="-40" width="60" height="40" fill="#2f6f8f"/><rect x="270" y="-40" width="60" height="40" fill="#2f6f8f"/></g>`,
);

fs.mkdirSync(out, { recursive: true });
for (const [i, scene] of [home, paint, tile, wash, tools].entries()) {
  const file = path.join(out, `hero-${i + 1}.webp`);
  await sharp(Buffer.from(scene)).webp({ quality: 80, effort: 6 }).toFile(file);
  console.log(file, fs.statSync(file).size, 'bytes');
}
