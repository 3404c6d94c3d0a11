// The factsheet render, run in a worker thread of `FactsheetService`'s pool (src/common/workers/worker-pool.ts) so
// pdfkit's CPU never stalls the main event loop (issue 30). Plain JavaScript on purpose: the same file runs from src/
// under ts-jest and from dist/src/ when built (copied there as a nest-cli asset). Its input is a `FactsheetPage`
// already made safe on the main thread (`factsheet-text.ts`: stripped, capped, long words broken).
import { parentPort } from 'node:worker_threads';
import PDFDocument from 'pdfkit';

/** @param {{ title: string; path: string; facts: string[]; text: string }} page */
function render(page) {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: 'Factsheet' } });
    /** @type {Buffer[]} */
    const chunks = [];
    doc.on('data', (c) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.fontSize(20).text(page.title, { underline: false });
    doc.moveDown(0.5);
    if (page.path) doc.fontSize(10).fillColor('#666').text(page.path);
    doc.moveDown();
    doc.fillColor('#000').fontSize(12);
    for (const fact of page.facts) doc.text(fact);
    if (page.text) {
      doc.moveDown();
      doc.fontSize(11).text(page.text);
    }
    doc.end();
  });
}

// pdfkit's first document parses its font metrics and compiles its code paths (~100 ms): done here, before any job
await render({ title: 'warm-up', path: '', facts: ['a: b'], text: 'warm up '.repeat(100) });

parentPort?.on('message', (page) => {
  render(page).then(
    (pdf) => parentPort?.postMessage({ ok: true, value: pdf }),
    (err) => parentPort?.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) }),
  );
});
