import * as XLSX from '@e965/xlsx';
import { Document, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/**
 * Knowledge-base files for the stand-in's parsers, each written by a writer library so a parser
 * meets a real file: a small FAQ as a PDF, a DOCX, a spreadsheet and XML.
 */

export const FAQ = [
  { id: 'entrega', pergunta: 'Qual o prazo de entrega?', resposta: 'A entrega leva de 3 a 7 dias úteis nas capitais.' },
  { id: 'troca', pergunta: 'Como troco um produto?', resposta: 'A troca é feita em até 30 dias pela página Meus Pedidos.' },
  { id: 'pix', pergunta: 'Posso pagar com Pix?', resposta: 'Sim, o pagamento por Pix tem 5% de desconto e é confirmado na hora.' },
  { id: 'senha', pergunta: 'Esqueci minha senha', resposta: 'Use o link Esqueci minha senha para receber um e-mail de recuperação.' },
];

/** One paragraph per line, each followed by the separator line `###`. */
export async function pdfFile(paragraphs: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  let y = 800;
  for (const p of paragraphs) {
    page.drawText(p, { x: 40, y, font, size: 10 });
    y -= 16;
    page.drawText('###', { x: 40, y, font, size: 10 }); // the document separator the upload names
    y -= 16;
  }
  return Buffer.from(await doc.save());
}

/** One paragraph each, followed by the separator paragraph `---`. */
export async function docxFile(paragraphs: string[]): Promise<Buffer> {
  const children = paragraphs.flatMap((p) => [new Paragraph(p), new Paragraph('---')]);
  return Buffer.from(await Packer.toBuffer(new Document({ sections: [{ children }] })));
}

/** The FAQ as one sheet, a row per entry. */
export function sheetFile(bookType: 'xlsx' | 'ods' | 'xls'): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.json_to_sheet(FAQ), 'FAQ');
  return XLSX.write(book, { type: 'buffer', bookType }) as Buffer;
}

/** The FAQ as XML, an `<item>` per entry. */
export const faqXml = `<?xml version="1.0" encoding="UTF-8"?>
<faq>${FAQ.map((f) => `<item><id>${f.id}</id><pergunta>${f.pergunta}</pergunta><resposta>${f.resposta}</resposta></item>`).join('')}</faq>`;

/** The FAQ in each format whose parser is loaded on demand, with the upload options it needs. */
export const PARSED_FORMATS: Array<{ ext: string; type: string; make: () => Promise<Buffer> | Buffer; extra?: Record<string, string> }> = [
  { ext: 'xml', type: 'application/xml', make: () => Buffer.from(faqXml), extra: { id_doc_engine: 'id' } },
  {
    ext: 'pdf',
    type: 'application/pdf',
    make: () => pdfFile(FAQ.map((f) => `${f.pergunta} ${f.resposta}`)),
    extra: { separator_doc_engine: '###' },
  },
  {
    ext: 'docx',
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    make: () => docxFile(FAQ.map((f) => `${f.pergunta} ${f.resposta}`)),
    extra: { separator_doc_engine: '---' },
  },
  { ext: 'xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', make: () => sheetFile('xlsx') },
  { ext: 'ods', type: 'application/vnd.oasis.opendocument.spreadsheet', make: () => sheetFile('ods') },
  { ext: 'xls', type: 'application/vnd.ms-excel', make: () => sheetFile('xls') },
];
