package webcapture

import (
	"bytes"
	"crypto/md5"
	"strings"
	"unicode"
	"unsafe"
)

// TextID returns a page set's text identifier (TID): the MD5 of the page's
// text (PDF 1.7 §10.9.2: "only the text"), with the text as PageText
// extracts it. It also returns that text.
func TextID(page []byte, contentType string) (ID, string) {
	return textID(PageText(page, contentType))
}

// textID is TextID from the text: its MD5 read from the string's own
// bytes (md5.Sum neither keeps nor changes them), not from a copy (a
// build makes 100,000 texts).
func textID(text string) (ID, string) {
	return md5.Sum(unsafe.Slice(unsafe.StringData(text), len(text))), text
}

// PageText extracts a page's text for TextID. The PDF text leaves the
// extraction open; this is the project's definition, chosen so that two
// captures of the same text give the same TID and a change in visible text
// changes it:
//
//  1. The page is decoded to UTF-8 by the charset it declares (ToUTF8).
//  2. For HTML, the text is the character data between tags, with
//     character references (&amp; &#233; …) decoded; the content of
//     script and style elements, comments, doctypes and attribute values
//     are not text. A page whose content type is not HTML ("text/plain",
//     or one that does not sniff as HTML) is all text.
//  3. Every run of Unicode white space (including the text between two
//     tags that is only white space) becomes one space, and the result is
//     trimmed.
//
// So markup-only changes (tags, attributes, indentation, line breaks) leave
// the TID as it is, and any change in the words changes it.
func PageText(page []byte, contentType string) string {
	return scanPage(page, contentType, false, true).text
}

func isRawText(name []byte) bool { return string(name) == "script" || string(name) == "style" }

// isHTML: the content type says so, or, with none given, the bytes sniff as
// HTML (a tag near the start).
func isHTML(doc []byte, contentType string) bool {
	ct := strings.ToLower(contentType)
	switch {
	case strings.HasPrefix(ct, "text/html"), strings.HasPrefix(ct, "application/xhtml"):
		return true
	case ct != "":
		return false
	}
	head := bytes.ToLower(bytes.TrimLeftFunc(doc[:min(len(doc), 512)], unicode.IsSpace))
	for _, p := range []string{"<!doctype html", "<html", "<head", "<body", "<title", "<p", "<div", "<table", "<!--", "<?xml"} {
		if bytes.HasPrefix(head, []byte(p)) {
			return true
		}
	}
	return false
}
