//go:build unix

package hostile

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A WARC file given as sources (audit --sources, id --warc, build --warc)
// is an input as a PDF is: read as a stream within --max-file-size,
// --timeout and --max-memory, with every part of it bounded (an HTTP
// header to 1 MiB, the blank lines between records to 64 KiB, a record to
// 256 MiB, and never held whole: warc.Limits), and a failure names the
// WARC file and the record, exit 4. Before, the file was read in the
// parent without a bound, a record held whole (a shared gzip member's
// records all at once), and the PDF took the blame.
//
// The files are small gzip members that inflate to gigabytes, written in
// a moment (gzipRepeat). Before is what the session-start binary did: the
// figures of gigabytes as the filer of issue 27 measured them (they are
// not run again on the shared machine), the exit statuses measured here.

// gzipRepeat writes to path one gzip member of prefix, then n bytes of
// fill, then suffix, without compressing n bytes: a compressed run of
// fill is written once and repeated (deflate blocks that refer to nothing
// before them may follow any others). Without crc, the member's checksum
// is left 0 (a reader stops long before it).
func gzipRepeat(path, prefix string, fill byte, n int64, suffix string, crc bool) error {
	const chunk = 1 << 20
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	run := bytes.Repeat([]byte{fill}, chunk)
	sum := crc32.ChecksumIEEE([]byte(prefix))
	out := [][]byte{{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}, deflateBlock([]byte(prefix), false)}
	for _, b := range out {
		if _, err := f.Write(b); err != nil {
			return err
		}
	}
	whole := deflateBlock(run, false)
	for left := n; left > 0; left -= chunk {
		b := run
		if left < chunk {
			b = run[:left]
			whole = deflateBlock(b, false)
		}
		if crc {
			sum = crc32.Update(sum, crc32.IEEETable, b)
		}
		if _, err := f.Write(whole); err != nil {
			return err
		}
	}
	sum = crc32.Update(sum, crc32.IEEETable, []byte(suffix))
	if !crc {
		sum = 0
	}
	trailer := binary.LittleEndian.AppendUint32(nil, sum)
	trailer = binary.LittleEndian.AppendUint32(trailer, uint32(int64(len(prefix))+n+int64(len(suffix))))
	if _, err := f.Write(append(deflateBlock([]byte(suffix), true), trailer...)); err != nil {
		return err
	}
	return f.Close()
}

// warcHeader is the header of a response record of n bytes for url.
func warcHeader(url string, n int64) string {
	return fmt.Sprintf("WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:%08x-0000-4000-8000-000000000000>\r\n"+
		"WARC-Date: 2025-01-02T03:04:05Z\r\nWARC-Target-URI: %s\r\nContent-Type: application/http; msgtype=response\r\n"+
		"Content-Length: %d\r\n\r\n", crc32.ChecksumIEEE([]byte(url)), url, n)
}

// httpOK is the start of a response whose body is n bytes.
func httpOK(n int64) string {
	return fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n", n)
}

// warcRecord is a small whole response record for url.
func warcRecord(url, body string) string {
	block := httpOK(int64(len(body))) + body
	return warcHeader(url, int64(len(block))) + block + "\r\n\r\n"
}

// headerBomb is a WARC of one response whose HTTP header is a field of
// 250 MiB (382 KB of gzip).
func headerBomb(path string) error {
	const field = 250 << 20
	head := "HTTP/1.1 200 OK\r\nX-Big: "
	end := "\r\n\r\nbody"
	return gzipRepeat(path, warcHeader("http://a.example/", int64(len(head))+field+int64(len(end)))+head, 'a', field, end+"\r\n\r\n", true)
}

// sharedMember is a WARC of records of 240 MiB each in one gzip member
// (3.9 MB of gzip for 16): a reader that keeps a record whose offset it
// cannot tell in memory holds them all. Without crc, the member's
// checksum is left 0 (a reader under a --timeout stops long before it).
func sharedMember(path string, records int, crc bool) error {
	const body = 240 << 20
	return gzipRuns(path, records, func(i int) (string, int64) {
		h := httpOK(body)
		return warcHeader(fmt.Sprintf("http://a.example/r%d", i), int64(len(h))+body) + h, body
	}, "\r\n\r\n", crc)
}

// deflateBlock is b as deflate blocks that refer to nothing before them,
// flushed to a byte boundary, or ending the stream when final: blocks
// that may follow any others.
func deflateBlock(b []byte, final bool) []byte {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write(b)
	if final {
		w.Close()
	} else {
		w.Flush()
	}
	return buf.Bytes()
}

// gzipRuns writes one gzip member of n parts, each a prefix and a run of
// spaces of the length part gives, each followed by sep; its checksum is
// 0 unless crc.
func gzipRuns(path string, n int, part func(i int) (string, int64), sep string, crc bool) error {
	const chunk = 1 << 20
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	run := bytes.Repeat([]byte{' '}, chunk)
	whole := deflateBlock(run, false)
	var sum uint32
	var size int64
	write := func(b []byte) error { _, err := f.Write(b); return err }
	if err := write([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}); err != nil {
		return err
	}
	for i := range n {
		prefix, m := part(i)
		if i > 0 {
			prefix = sep + prefix
		}
		sum, size = crc32.Update(sum, crc32.IEEETable, []byte(prefix)), size+int64(len(prefix))
		if err := write(deflateBlock([]byte(prefix), false)); err != nil {
			return err
		}
		for left := m; left > 0; left -= chunk {
			b, z := run, whole
			if left < chunk {
				b = run[:left]
				z = deflateBlock(b, false)
			}
			if crc {
				sum = crc32.Update(sum, crc32.IEEETable, b)
			}
			size += int64(len(b))
			if err := write(z); err != nil {
				return err
			}
		}
	}
	sum, size = crc32.Update(sum, crc32.IEEETable, []byte(sep)), size+int64(len(sep))
	if !crc {
		sum = 0
	}
	trailer := binary.LittleEndian.AppendUint32(nil, sum)
	trailer = binary.LittleEndian.AppendUint32(trailer, uint32(size))
	if err := write(append(deflateBlock([]byte(sep), true), trailer...)); err != nil {
		return err
	}
	return f.Close()
}

// longURLs is a WARC of 8,000 small responses whose URLs are 16 KB each
// (0.5 MB of gzip): the index of their URLs alone is 128 MB.
func longURLs(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	z, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	long := strings.Repeat("p", 16000)
	for i := range 8000 {
		if _, err := io.WriteString(z, warcRecord(fmt.Sprintf("http://a.example/%s%d", long, i), "a")); err != nil {
			return err
		}
	}
	if err := z.Close(); err != nil {
		return err
	}
	return f.Close()
}

// blankLines is a WARC of a record, 12 GiB of blank lines (12.5 MB of
// gzip), and another record.
func blankLines(path string) error {
	return gzipRepeat(path, warcRecord("http://a.example/", "a"), '\n', 12<<30, warcRecord("http://b.example/", "b"), false)
}

// truncatedWARC is a WARC of two records, a gzip member each, the second
// cut in the middle.
func truncatedWARC(path string) error {
	var b bytes.Buffer
	for _, url := range []string{"http://a.example/", "http://b.example/"} {
		var m bytes.Buffer
		if err := gzipBytes(&m, warcRecord(url, strings.Repeat("x", 4096))); err != nil {
			return err
		}
		b.Write(m.Bytes())
	}
	return os.WriteFile(path, b.Bytes()[:b.Len()-40], 0o644)
}

func gzipBytes(w *bytes.Buffer, s string) error {
	tmp, err := os.CreateTemp("", "warc-*.gz")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	tmp.Close()
	if err := gzipRepeat(tmp.Name(), s, ' ', 0, "", true); err != nil {
		return err
	}
	b, err := os.ReadFile(tmp.Name())
	w.Write(b)
	return err
}

// zipFile is the start of a zip archive (what a WARC named .warc.gz may
// be instead).
const zipFile = "PK\x03\x04\x14\x00\x00\x00\x08\x00" + "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x05\x00\x00\x00a.txt" + "KL\x02\x00"

// warcSetup writes the capture sample to cap.pdf, each WARC file with its
// writer, the other files given, and runs webcap with args.
func warcSetup(warcs map[string]func(path string) error, files map[string]string, args ...string) func(dir string) ([]string, func(), error) {
	return func(dir string) ([]string, func(), error) {
		for name, write := range warcs {
			if err := write(filepath.Join(dir, name)); err != nil {
				return nil, nil, err
			}
		}
		if files == nil {
			files = map[string]string{}
		}
		files["cap.pdf"] = "capture"
		return inputSetup(files, args...)(dir)
	}
}

func init() {
	bomb := map[string]func(string) error{"h.warc.gz": headerBomb}
	shared := map[string]func(string) error{"s.warc.gz": func(p string) error { return sharedMember(p, 16, true) }}
	// 64 records (15 GB inflated, 15 MB of gzip) take some 6 s of CPU to
	// inflate: under a --timeout of 1s, reading them is stopped on any
	// machine, a few records in, none of them held.
	long := map[string]func(string) error{"s.warc.gz": func(p string) error { return sharedMember(p, 64, false) }}
	const built = `{"input": "cap.pdf", "pageSets": [{"pages": "1", "url": "http://a.example/r0"}]}`
	const warcStop = 4 * time.Second // a --timeout of 1s, webcap's start, on a shared machine
	Register(
		Case{Name: "warc-http-header-bomb", Part: Bounds,
			Setup: warcSetup(bomb, nil, "audit", "--sources", "h.warc.gz", "cap.pdf"),
			Exit:  4,
			Stderr: []string{`^webcap: audit: --sources h\.warc\.gz: record 1 at byte 0: not a valid WARC file: ` +
				`HTTP header over the size limit: more than 1048576 bytes$`},
			NotStdout: []string{`cap\.pdf`},
			MaxCPU:    cpuQuick, MaxRSS: rssQuick,
			Before: `2.5 GB, then "capture.pdf: Not well-formed", exit 4 (a 382 KB .warc.gz of one 250 MiB HTTP header)`},
		Case{Name: "warc-http-header-bomb-in-process", Part: Bounds,
			Setup:  warcSetup(bomb, nil, "audit", "--in-process", "--sources", "h.warc.gz", "cap.pdf"),
			Exit:   4,
			Stderr: []string{`^webcap: audit: --sources h\.warc\.gz: record 1 at byte 0: not a valid WARC file: HTTP header over the size limit`},
			MaxCPU: cpuQuick, MaxRSS: rssQuick,
			Before: "2.5 GB (the header read whole by http.ReadResponse)"},
		Case{Name: "warc-shared-member-records", Part: Bounds,
			Setup: warcSetup(long, nil, "audit", "--timeout", "1s", "--sources", "s.warc.gz", "cap.pdf"),
			Exit:  4,
			Stderr: []string{`^webcap: audit: --sources s\.warc\.gz: record \d+ at byte \d+ of the gzip member at byte 0: ` +
				`took longer than --timeout 1s$`},
			MaxCPU: warcStop, MaxRSS: rssQuick,
			Before: "5.2 GB for 16 records of 240 MiB in one 3.9 MB gzip member, each held (64 here)"},
		Case{Name: "warc-blank-lines", Part: Bounds,
			Setup:  warcSetup(map[string]func(string) error{"b.warc.gz": blankLines}, nil, "audit", "--timeout", "5s", "--sources", "b.warc.gz", "cap.pdf"),
			Exit:   4,
			Stderr: []string{`^webcap: audit: --sources b\.warc\.gz: record 2 at byte \d+ of the gzip member at byte 0: not a valid WARC file: more than 65536 bytes of blank lines between records$`},
			MaxCPU: cpuQuick, MaxRSS: rssQuick,
			Before: "78 s under --timeout 5s (12 GiB of blank lines in 12.5 MB of gzip, skipped a byte at a time)"},
		Case{Name: "warc-max-memory-audit", Part: Bounds,
			Setup:     warcSetup(map[string]func(string) error{"u.warc.gz": longURLs}, nil, "audit", "--max-memory", "64MiB", "--sources", "u.warc.gz", "cap.pdf"),
			Exit:      4,
			Stderr:    []string{`^webcap: audit: --sources u\.warc\.gz: record \d+ at byte \d+ of the gzip member at byte 0: took more memory than --max-memory 64 MiB$`},
			NotStdout: []string{`cap\.pdf`},
			MaxCPU:    cpuQuick * 2, MaxRSS: 150 << 20,
			Before: `214 MB in the parent, past --max-memory 64MiB; then the worker died of it, and the PDF took the blame: "cap.pdf: unreadable: reading took more memory than --max-memory 64 MiB", exit 4`},
		Case{Name: "warc-id-shared-member", Part: Bounds,
			Setup:  warcSetup(long, nil, "id", "--timeout", "1s", "--warc", "s.warc.gz"),
			Exit:   4,
			Stderr: []string{`^webcap: id: --warc s\.warc\.gz: record \d+ at byte \d+ of the gzip member at byte 0: took longer than --timeout 1s$`},
			MaxCPU: warcStop, MaxRSS: rssQuick,
			Before: "1.79 GB, stopped only after the whole default --timeout"},
		Case{Name: "warc-id-max-memory", Part: Bounds,
			Setup:  warcSetup(shared, nil, "id", "--max-memory", "64MiB", "--max-file-size", "1MiB", "--warc", "s.warc.gz"),
			Exit:   4,
			Stderr: []string{`^webcap: id: --warc s\.warc\.gz: file too large: \d+ bytes, more than 1048576 \(--max-file-size\)$`},
			MaxCPU: cpuQuick, MaxRSS: rssQuick,
			Before: `"took more memory than --max-memory 64 MiB", exit 4, after 3.0 s and 742 MB: the 3.9 MB file read past --max-file-size 1MiB, its records held`},
		Case{Name: "warc-build-shared-member", Part: Bounds,
			Setup:  warcSetup(long, map[string]string{"m.json": built}, "build", "--timeout", "1s", "--warc", "s.warc.gz", "m.json", "-o", "out.pdf"),
			Exit:   4,
			Stderr: []string{`^webcap: build: s\.warc\.gz: record \d+ at byte \d+ of the gzip member at byte 0: took longer than --timeout 1s$`},
			Check:  Absent("out.pdf"),
			MaxCPU: warcStop, MaxRSS: rssQuick,
			Before: "1.79 GB, stopped only after the whole default --timeout"},
		Case{Name: "warc-build-truncated", Part: Inputs,
			Setup:  warcSetup(map[string]func(string) error{"t.warc.gz": truncatedWARC}, map[string]string{"m.json": built}, "build", "--warc", "t.warc.gz", "m.json", "-o", "out.pdf"),
			Exit:   4,
			Stderr: []string{`^webcap: build: t\.warc\.gz: record 2 at byte \d+: not a valid WARC file: .*unexpected EOF$`},
			Check:  Absent("out.pdf"),
			MaxCPU: cpuQuick, MaxRSS: rssQuick,
			Before: `exit 1 ("t.warc.gz: not a valid WARC file: record 2: block shorter than its Content-Length 4163: unexpected EOF")`},
		Case{Name: "warc-zip-sources", Part: Inputs,
			Setup:  inputSetup(map[string]string{"z.warc.gz": zipFile, "cap.pdf": "capture"}, "audit", "--sources", "z.warc.gz", "cap.pdf"),
			Exit:   4,
			Stderr: []string{`^webcap: audit: --sources z\.warc\.gz: record 1 at byte 0: not a valid WARC file: header cut short: unexpected EOF$`},
			MaxCPU: cpuQuick, MaxRSS: rssQuick,
			Before: "exit 2 (a usage error)"},
		Case{Name: "warc-zip-id", Part: Inputs,
			Setup:  inputSetup(map[string]string{"z.warc": zipFile}, "id", "--warc", "z.warc"),
			Exit:   4,
			Stderr: []string{`^webcap: id: --warc z\.warc: record 1 at byte 0: not a valid WARC file: header cut short: unexpected EOF$`},
			MaxCPU: cpuQuick, MaxRSS: rssQuick,
			Before: "exit 2 (a usage error)"},
		Case{Name: "warc-over-limit-record", Part: Inputs,
			Setup: inputSetup(map[string]string{"o.warc": "WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: 999999999999\r\n\r\n", "cap.pdf": "capture"},
				"audit", "--sources", "o.warc", "cap.pdf"),
			Exit:   4,
			Stderr: []string{`^webcap: audit: --sources o\.warc: record 1 at byte 0: not a valid WARC file: block of 999999999999 bytes, over the limit of 268435456$`},
			MaxCPU: cpuQuick, MaxRSS: rssQuick,
			Before: "exit 2 (a usage error)"},
		Case{Name: "warc-bad-content-length", Part: Inputs,
			Setup: inputSetup(map[string]string{"c.warc": "WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: x\r\n\r\n", "cap.pdf": "capture", "m.json": built},
				"build", "--warc", "c.warc", "m.json", "-o", "out.pdf"),
			Exit:   4,
			Stderr: []string{`^webcap: build: --warc c\.warc: record 1 at byte 0: not a valid WARC file: Content-Length "x" is not a length$`},
			MaxCPU: cpuQuick, MaxRSS: rssQuick,
			Before: "exit 2 (a usage error)"},
	)
}
