package pdfio

import (
	"bytes"
	"hash/maphash"
	"unsafe"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// A read (readBytes) keeps every object the walk reaches parsed, and most
// of what it keeps repeats from object to object or is a copy of the
// file's own bytes: every page of a capture has the same /MediaBox array
// and the same /Resources dictionary, and each string is its bytes copied
// out of the file. A valueShare lets the fast parser of one read give
// back, for the direct arrays and dictionaries inside an object, the value
// it parsed before from the same text (one map for 100,000 pages' equal
// /Resources, not 100,000), and make strings of the bytes they were
// parsed from, without a copy.
//
// That holds only where nothing changes a parsed value in place and the
// parsed bytes do not change while the values live: a read, which copies
// out whatever it keeps (rawString, internName) and lets go of every
// parsed value when it returns. An update edits the values it read, so
// lazyParse and the decoder share nothing unless readBytes asks.
type valueShare struct {
	seed  maphash.Seed
	slots [shareSlots]sharedValue
}

// sharedValue is the value last parsed from text, in its slot.
type sharedValue struct {
	text string
	v    types.Object
}

// shareSlots is how many values a share holds: a value that repeats on
// every page is met again long before another of the same slot replaces
// it, and the table stays a few kilobytes however large the file.
const shareSlots = 1024

// maxSharedText bounds the text of a value shared (longer containers are
// rarely repeated, and would cost a hash for nothing).
const maxSharedText = 128

func newValueShare() *valueShare {
	return &valueShare{seed: maphash.MakeSeed()}
}

// aliasString is b as a string without a copy (b must not change while
// the string lives: see valueShare).
func aliasString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// sharedEnd is where the direct array or dictionary at b[i] ends, when it
// is short and plain enough to share, and nested no deeper than the fast
// parser follows from depth: no string literal or comment inside (the
// parser decides those); -1 otherwise.
func sharedEnd(b []byte, i, depth int) int {
	level := 0
	end := min(len(b), i+maxSharedText)
	for j := i; j < end; j++ {
		switch b[j] {
		case '(', '%':
			return -1
		case '[':
			level++
		case ']':
			level--
		case '<':
			if j+1 < end && b[j+1] == '<' {
				level++
				j++
				break
			}
			k := j + 1 // a hex string: to its '>'
			for k < end && b[k] != '>' {
				k++
			}
			j = k
		case '>':
			if j+1 < end && b[j+1] == '>' {
				level--
				j++
			}
		}
		if depth+level > fastMaxDepth {
			return -1
		}
		if level == 0 {
			return j + 1
		}
	}
	return -1
}

// container parses the array or dictionary at p.i (depth > 0: inside an
// object) through the share, if any.
func (p *objParser) container(depth int, parse func(int) (types.Object, bool)) (types.Object, bool) {
	if p.share == nil || depth == 0 {
		return parse(depth)
	}
	return p.shared(depth, parse)
}

// topValue parses an object's value at p.i, as value(0) does; through the
// share, if any, when it is a stream's dictionary: stream objects are
// where a file repeats whole values (20,000 content streams of
// <</Length 46>>), and a stream's dictionary is read, never changed, by a
// read. Any other object keeps a value of its own.
func (p *objParser) topValue() (types.Object, bool) {
	if p.share != nil {
		if j := p.skipFrom(p.i); j >= 0 && j+1 < len(p.b) && p.b[j] == '<' && p.b[j+1] == '<' {
			if end := sharedEnd(p.b, j, 0); end > 0 && streamFollows(p.b, end) {
				p.i = j
				return p.shared(0, p.dict)
			}
		}
	}
	return p.value(0)
}

// streamFollows: the keyword "stream" follows b[i:] after white space.
func streamFollows(b []byte, i int) bool {
	for i < len(b) && cpuSpace(b[i]) {
		i++
	}
	return bytes.HasPrefix(b[i:], []byte("stream"))
}

// shared parses the array or dictionary at p.i through the share: the
// value parsed before from the same text, else parsed now and kept for
// the next.
func (p *objParser) shared(depth int, parse func(int) (types.Object, bool)) (types.Object, bool) {
	s := p.share
	end := sharedEnd(p.b, p.i, depth)
	if end < 0 {
		return parse(depth)
	}
	text := p.b[p.i:end]
	slot := &s.slots[maphash.Bytes(s.seed, text)%shareSlots]
	if slot.v != nil && slot.text == string(text) {
		p.i = end
		return slot.v, true
	}
	start := p.i
	v, ok := parse(depth)
	if ok && v != nil && p.i == end {
		*slot = sharedValue{text: aliasString(p.b[start:end]), v: v}
	}
	return v, ok
}
