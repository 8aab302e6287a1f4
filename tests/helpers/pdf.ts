import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream } from 'pdf-lib';
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

/**
 * The images each page of a PDF draws (the image XObjects of its resources; a soft mask goes with its
 * image, not counted apart), with their pixel sizes, read from the images' dictionaries with pdf-lib:
 * nothing decoded. pdf.js (pdf-parse's getImage) decoded every JPEG in JavaScript to tell their sizes,
 * 8.7 s for a 60-photo job report.
 */
export async function pdfImages(data: Buffer): Promise<{ page: number; width: number; height: number }[]> {
  const doc = await PDFDocument.load(data, { updateMetadata: false });
  return doc.getPages().flatMap((page, i) => {
    const resources = page.node.Resources();
    const objects = resources?.lookupMaybe(PDFName.of('XObject'), PDFDict);
    if (!objects) return [];
    return objects
      .values()
      .map((ref) => doc.context.lookup(ref))
      .filter((object): object is PDFRawStream => object instanceof PDFRawStream)
      .map((image) => image.dict)
      .filter((dict) => dict.get(PDFName.of('Subtype')) === PDFName.of('Image'))
      .map((dict) => ({
        page: i + 1,
        width: dict.lookup(PDFName.of('Width'), PDFNumber).asNumber(),
        height: dict.lookup(PDFName.of('Height'), PDFNumber).asNumber(),
      }));
  });
}
