// Package pdfio reads the Web Capture structures of a PDF file byte-exactly
// (PDF Reference 1.7 §10.9; ISO 32000-1 §14.10) into the webcapture model. It
// is the only package that imports pdfcpu (github.com/pdfcpu/pdfcpu v0.15.0),
// and it uses it as a parser only: pdfcpu builds the cross-reference table
// and parses the objects; pdfio walks the raw objects itself.
//
// pdfcpu's string decoders, its validation and its name-tree cache change the
// bytes of binary keys (UTF-16 and PDFDocEncoding decoding, BOM stripping,
// escape processing over decoded hex), so pdfio never calls them: literal
// strings are unescaped here by the rules of PDF 1.7 §3.2.3, hex strings are
// decoded here, and the IDS and URLS trees are walked here, with a record of
// every defect met on the way (unsorted or duplicate keys, wrong /Limits, an
// odd /Names array, keys that are not strings, dangling references, cycles)
// rather than an abort.
//
// Untrusted files: parsing runs under a deadline (Options.Timeout), any panic
// from pdfcpu is recovered into an *Error, tree walks are bounded in depth
// and node count, and every reference chain is cycle-checked. Reading never
// modifies the file.
package pdfio
