import { PDFParse } from 'pdf-parse';

/** The text a PDF shows, as a reader would copy it. */
export async function pdfText(data: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(data) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

/** The images a PDF draws, page by page, with their pixel sizes. */
export async function pdfImages(data: Buffer): Promise<{ page: number; width: number; height: number }[]> {
  const parser = new PDFParse({ data: new Uint8Array(data) });
  try {
    const result = await parser.getImage({ imageDataUrl: false, imageBuffer: false });
    return result.pages.flatMap((p) => p.images.map((i) => ({ page: p.pageNumber, width: i.width, height: i.height })));
  } finally {
    await parser.destroy();
  }
}
