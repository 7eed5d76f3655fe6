/** Reading PDFs in tests with Mozilla's pdf.js: page count, page size and each page's text. */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PdfInfo {
  pages: number;
  /** Size of the first page in points. */
  size: { width: number; height: number };
  /** Text of each page, items joined by spaces. */
  text: string[];
}

export async function readPdf(bytes: Buffer): Promise<PdfInfo> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const text: string[] = [];
    let size = { width: 0, height: 0 };
    for (let i = 1; i <= doc.numPages; i++) {
      const page = await doc.getPage(i);
      if (i === 1) {
        const [x0, y0, x1, y1] = page.view as [number, number, number, number];
        size = { width: x1 - x0, height: y1 - y0 };
      }
      const content = await page.getTextContent();
      text.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' ').replace(/\s+/g, ' '));
    }
    return { pages: doc.numPages, size, text };
  } finally {
    await doc.destroy();
  }
}
