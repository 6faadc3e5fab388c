// Helpers of speedscope.sh, Node.js built-ins only:
//   serve DIR   serve DIR's files on 127.0.0.1 (a free port, printed as
//               "port N"), until killed; speedscope fetches its profile,
//               which a file:// page may not.
//   png FILE    decode an 8-bit RGB/RGBA PNG (chromium's screenshots) and
//               print "chromatic N colours M": pixels whose channels differ
//               by more than 40 (the viewer's coloured boxes; its empty or
//               error page is grey text on white) and their distinct colours.
'use strict';
const fs = require('fs'), path = require('path'), zlib = require('zlib'), http = require('http');
const [mode, arg] = process.argv.slice(2);
if (mode === 'serve') {
  const root = path.resolve(arg);
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
                  '.json': 'application/json', '.wasm': 'application/wasm' };
  const srv = http.createServer((req, res) => {
    const p = path.join(root, path.normalize(decodeURIComponent(req.url.split(/[?#]/)[0])));
    if (!p.startsWith(root + path.sep)) { res.writeHead(403); res.end(); return; }
    fs.readFile(p, (err, data) => {
      if (err) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'Content-Type': types[path.extname(p)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  srv.listen(0, '127.0.0.1', () => console.log('port ' + srv.address().port));
} else if (mode === 'png') {
  const b = fs.readFileSync(arg);
  if (b.readUInt32BE(0) !== 0x89504e47) throw new Error(arg + ': not a PNG');
  let off = 8, w = 0, h = 0, ct = 0, idat = [];
  while (off < b.length) {
    const len = b.readUInt32BE(off), type = b.toString('latin1', off + 4, off + 8);
    const d = b.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      w = d.readUInt32BE(0); h = d.readUInt32BE(4); ct = d[9];
      if (d[8] !== 8 || (ct !== 2 && ct !== 6) || d[12] !== 0)
        throw new Error(arg + ': not 8-bit RGB(A), non-interlaced');
    } else if (type === 'IDAT') idat.push(d);
    off += 12 + len;
  }
  const bpp = ct === 6 ? 4 : 3, stride = w * bpp, raw = zlib.inflateSync(Buffer.concat(idat));
  const px = Buffer.alloc(stride * h);
  for (let y = 0; y < h; y++) {
    const f = raw[y * (stride + 1)], src = y * (stride + 1) + 1, dst = y * stride;
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? px[dst + i - bpp] : 0, up = y ? px[dst - stride + i] : 0;
      const c = y && i >= bpp ? px[dst - stride + i - bpp] : 0;
      let v = raw[src + i];
      if (f === 1) v += a;
      else if (f === 2) v += up;
      else if (f === 3) v += (a + up) >> 1;
      else if (f === 4) {
        const p = a + up - c, pa = Math.abs(p - a), pb = Math.abs(p - up), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? up : c;
      }
      px[dst + i] = v & 255;
    }
  }
  let chromatic = 0;
  const colours = new Set();
  for (let i = 0; i < px.length; i += bpp) {
    const r = px[i], g = px[i + 1], bl = px[i + 2];
    if (Math.max(r, g, bl) - Math.min(r, g, bl) > 40) {
      chromatic++;
      colours.add((r << 16) | (g << 8) | bl);
    }
  }
  console.log('chromatic ' + chromatic + ' colours ' + colours.size);
} else {
  console.error('usage: speedscope_tool.js serve DIR | png FILE');
  process.exit(2);
}
