// The documents feature's public entry: PDFs drawn off the event loop, stored once, served as stored.
export { DocumentStore, fingerprint, type DocumentSource, type StoredDocument } from './store';
export { pdfPool } from './pool';
