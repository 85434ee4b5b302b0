// Package pdfio reads and writes the Web Capture structures of PDF files
// (PDF Reference 1.7 §10.9; ISO 32000-1 §14.10). It does these things:
//
//   - Read: Open, Read and ReadBytes read a file byte-exactly into the
//     webcapture model (a Document: SpiderInfo and its commands, the IDS and
//     URLS name trees, every content set, the pages and image XObjects with
//     their /ID, the outline with each tagged bookmark's Article, and the
//     structure tree's SpdrArt Articles, its /ParentTree and each page's
//     /StructParents), recording every defect met instead of stopping at it.
//     Document.LookupURL and LookupID answer what a viewer asks the trees.
//   - Write incremental updates: an Update (NewUpdate) appends new and
//     changed objects after the file's own bytes, which stay exactly as they
//     are (a signature over them stays valid), with a cross-reference
//     section of the file's own flavour. Web Capture dictionaries are
//     written from the model by typed calls (AddCommand, AddContentSet,
//     ReplaceContentSet, SetSpiderInfo, SetNameTree, SetID, ...).
//   - Copy pages: Update.AppendPages and ReplacePages copy a printed PDF's
//     pages, and everything they use, into the file.
//   - Chain updates: Update.Continue is an update of the file an update
//     wrote, from its parse and objects (Update.Result reads that file the
//     same way), so that a file built in steps is parsed once.
//   - Merge: Merge joins printed PDFs into one file.
//   - Embed files: Update.Attach adds a document-level associated file
//     (ISO 32000-2 §7.11.4, §14.13: an unfiltered /EmbeddedFile stream
//     with /Params, a file specification with /AFRelationship, listed in
//     the catalog's /AF and /Names /EmbeddedFiles; attach.go), its bytes
//     streamed from disk by Update.WriteTo; Document.Attachments reads the
//     embedded files back, AttachedFile.Open their bytes within a cap.
//
// WriteFile writes a result atomically (a temporary file beside it, synced,
// renamed over it, the directory synced; a symbolic link stays a link, the
// file keeps its mode and owner), and only to a regular file or a new
// path: never over a device, a FIFO or a link to a descriptor.
// CheckOutput applies the same rules before any work starts, CreateOutput
// streams a large output, OpenAppend opens a results file to append to.
// CheckRun refuses, before any work, an output of a run that is one of its
// inputs or another of its outputs, by file identity (runfiles.go).
//
// Each Web Capture dictionary is described once, by a table of its keys
// (keys.go); the reader and the writer both go through it.
//
// It is the only package that imports pdfcpu (github.com/pdfcpu/pdfcpu
// v0.15.0), and nothing it exports mentions a pdfcpu type. pdfcpu is used
// as a parser: it builds the cross-reference table and parses the objects;
// pdfio walks the raw objects itself. pdfcpu's string decoders, its
// validation and its name-tree cache change the bytes of binary keys
// (UTF-16 and PDFDocEncoding decoding, BOM stripping, escape processing
// over decoded hex), so pdfio never calls them: literal strings are
// unescaped here by the rules of PDF 1.7 §3.2.3, hex strings are decoded
// here, and the IDS and URLS trees are walked here, with a record of every
// defect met on the way (unsorted or duplicate keys, wrong /Limits, an odd
// /Names array, keys that are not strings, dangling references, cycles)
// rather than an abort. pdfcpu never writes a byte of a user's file.
//
// One parser is written here although pdfcpu has one: the objects of an
// object stream, which pdfcpu leaves unparsed until used and which the walk
// reaches nearly all of (pages, sets, tree nodes), are parsed by
// parseCompressed (objparse.go), two to three times faster than pdfcpu's
// parser, which copies each object and reads it rune by rune. It takes
// only the syntax on which it gives the very objects pdfcpu would (a fuzz
// target compares the two) and leaves the rest to pdfcpu.
//
// Untrusted files: parsing runs under a deadline (Options.Timeout), any
// panic from pdfcpu is recovered into an *Error, tree walks are bounded in
// depth and node count, and every reference chain is cycle-checked. Streams
// are decoded by the reader itself (decode.go), each once however many
// objects use it, within a cap per stream and in all
// (Options.MaxStreamDecode, MaxDecodeTotal): what needs a stream past a cap
// is a TooLarge defect, never a stream cut short. A /Prev chain that loops
// is read once round, as qpdf does (prevloop.go). Reading never modifies
// the file, and the same file reads the same every time (whatever the
// reader takes from a map is taken in order).
package pdfio
