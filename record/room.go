package record

import (
	"github.com/webcap/webcap/internal/limits"
	"github.com/webcap/webcap/mirror"
)

// maxRoom is the most room readInput leaves after the input: what 300,000
// page sets append, about. A build that appends more has its output copied
// whole once, as without the room.
const maxRoom = 256 << 20

// readInput reads the manifest's input PDF with room after its bytes for
// what the build is expected to append, which the update writes in
// (pdfio's Update.AppendInPlace): the output is then the input's array,
// with no copy of the input or of the objects made (a build of 100,000
// page sets appends 80 MB to a 32 MB input). The room is an estimate
// from the manifest (appendHint), at most four times the input's size
// (each set has pages of its own in it) and maxRoom; what it does not
// take is never touched.
func (b *builder) readInput() ([]byte, error) {
	f, err := mirror.OpenIn(b.m.dir, b.m.Input, b.confined())
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	return limits.ReadAllRoom(f, b.maxFileSize(), "", min(b.m.appendHint(), 4*size, maxRoom))
}

// appendHint is about how many bytes a build of m appends to its input:
// for a page set, its content set (some 350 bytes, and its strings), its
// pages' dictionaries written again with /ID, its URLS keys (the URL's,
// and a redirect's), its IDS entry and its cross-reference entries; for an
// image set, as much and the images.
func (m *Manifest) appendHint() int64 {
	var n int64
	for _, s := range m.PageSets {
		pages := 1
		if first, last, err := parseRange(s.Pages); err == nil && last > first {
			pages = min(last-first+1, 16)
		}
		n += int64(512 + 256*pages + 2*len(s.URL) + len(s.Title) + len(s.ContentType))
		n += redirectsHint(s.Redirects)
	}
	for _, s := range m.ImageSets {
		n += int64(512 + 64*len(s.Images) + 2*len(s.URL))
		n += redirectsHint(s.Redirects)
	}
	return n
}

// redirectsHint: each URL of a chain is in the source's /AU and is a
// URLS key.
func redirectsHint(chains [][]string) int64 {
	var n int64
	for _, c := range chains {
		for _, u := range c {
			n += int64(2*len(u) + 8)
		}
	}
	return n
}
