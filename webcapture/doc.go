// Package webcapture is the data model of PDF Web Capture (PDF Reference 1.7
// §10.9; ISO 32000-1 and ISO 32000-2 §14.10): the Web Capture information
// dictionary (SpiderInfo) and its command dictionaries, content sets (page
// sets and image sets), source information with URL alias chains, and the
// digital identifiers that key the IDS name tree.
//
// The model holds what a file says, not what the specification wants it to
// say: a malformed identifier keeps its bytes (RawID), a date that does not
// parse keeps its text (Date), a text string keeps its bytes (Text), and an
// optional key that is absent is a nil pointer, so that a reader can show a
// damaged file truthfully and an auditor can judge it. Package pdfio reads
// and writes these values; this package never touches PDF syntax.
//
// Field comments name the PDF key, its type and, for optional keys, the
// default the specification gives when the key is absent.
package webcapture
