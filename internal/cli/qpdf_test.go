package cli

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/webcapture"
)

// qpdf, an independent reader, agrees with "webcap info --json" on every key
// of the IDS and URLS trees, in order.
func TestQPDFAgreesOnTreeKeys(t *testing.T) {
	if _, err := exec.LookPath("qpdf"); err != nil {
		t.Skip("qpdf is not installed (apt-get install qpdf)")
	}
	dir := t.TempDir()
	capture, _ := pb.Sample("capture")
	files := map[string][]byte{"capture.pdf": capture}
	for _, v := range []struct {
		name   string
		xs, os bool
		key    func(string) any
	}{{"classic-lit.pdf", false, false, pb.LitKey}, {"objstm-hex.pdf", true, true, pb.HexKey}, {"xrefstm-esc.pdf", true, false, pb.EscKey}} {
		files[v.name] = deepTree(v.xs, v.os, v.key)
	}
	for name, data := range files {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			ios, _, out, errOut := Test()
			if code := Main(context.Background(), []string{"info", "--json", p}, ios); code != 0 {
				t.Fatalf("webcap info: exit %d: %s", code, errOut)
			}
			var rep infoReport
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatal(err)
			}
			objs := qpdfObjects(t, p)
			for _, tree := range []struct {
				name string
				j    *treeJSON
			}{{"IDS", rep.IDS}, {"URLS", rep.URLS}} {
				theirs := qpdfTreeKeys(t, objs, tree.name)
				if tree.j == nil || len(tree.j.Keys) != len(theirs) || len(theirs) == 0 {
					t.Fatalf("%s: webcap %v keys, qpdf %d", tree.name, tree.j, len(theirs))
				}
				for i, k := range tree.j.Keys {
					ours := string(k.Key) // URLS: the bytes, decoded from a string or {"hex"}
					if tree.name == "IDS" {
						b, _ := hex.DecodeString(ours)
						ours = string(b)
					}
					switch {
					case sameKey(ours, theirs[i]):
					case strings.HasPrefix(theirs[i], "u:") && malformedUTF16(ours):
						// qpdf's JSON renders this key as text and loses
						// bytes (a lone surrogate, or FF FE taken as a
						// UTF-16LE mark): nothing to compare.
						t.Logf("%s key %d: qpdf renders % X lossily as %q", tree.name, i, ours, theirs[i])
					default:
						t.Errorf("%s key %d: webcap % X, qpdf %q", tree.name, i, ours, theirs[i])
					}
				}
			}
		})
	}
}

// sameKey compares our bytes with qpdf's rendering: "b:hex" is bytes,
// "u:text" is the string decoded as a PDF text string.
func sameKey(ours, theirs string) bool {
	switch {
	case strings.HasPrefix(theirs, "b:"):
		b, err := hex.DecodeString(theirs[2:])
		return err == nil && string(b) == ours
	case strings.HasPrefix(theirs, "u:"):
		return webcapture.Text(ours).String() == theirs[2:]
	}
	return false
}

// malformedUTF16 reports a string that starts with a UTF-16 byte-order mark
// (either order) but is not valid UTF-16 after it.
func malformedUTF16(s string) bool {
	var be bool
	switch {
	case strings.HasPrefix(s, "\xFE\xFF"):
		be = true
	case strings.HasPrefix(s, "\xFF\xFE"):
	default:
		return false
	}
	s = s[2:]
	if len(s)%2 != 0 {
		return true
	}
	for i := 0; i < len(s); i += 2 {
		u := uint16(s[i+1])<<8 | uint16(s[i])
		if be {
			u = uint16(s[i])<<8 | uint16(s[i+1])
		}
		switch {
		case u >= 0xD800 && u < 0xDC00:
			if i+2 >= len(s) {
				return true
			}
			n := uint16(s[i+3])<<8 | uint16(s[i+2])
			if be {
				n = uint16(s[i+2])<<8 | uint16(s[i+3])
			}
			if n < 0xDC00 || n > 0xDFFF {
				return true
			}
			i += 2
		case u >= 0xDC00 && u <= 0xDFFF:
			return true
		}
	}
	return false
}

// deepTree: a three-level IDS tree of byte strings that tempt decoders.
func deepTree(xs, os bool, key func(string) any) []byte {
	b := pb.New()
	b.XRefStream, b.ObjectStreams = xs, os
	pagesRoot, pages := b.PageTree(1, nil)
	keys := []string{"\x00\x01\x02", "()\\\\()", "\xFE\xFF\x00\x41\xD8\x00", "\xFE\xFF\x00T\x00x", "\xEF\xBB\xBF\x80",
		"\xff\xfe\xfd", "\\n\\123\\z\r\n\r", "\x5c\x5c\x5c", "plain", "\x83\xed\xd6\xaa\xb5\x30\xb6\x44"}
	var ids, urls []pb.KV
	for i, k := range keys {
		cs := b.Add(pb.D("S", pb.Name("SPS"), "ID", key(k), "O", pb.Array{pages[0]}, "SI", pb.D("AU", pb.Lit("http://a/"))))
		ids = append(ids, pb.KV{Key: k, Value: cs})
		urls = append(urls, pb.KV{Key: "http://example.com/" + string(rune('a'+i)), Value: cs})
	}
	names := b.Add(pb.D("IDS", b.NameTree(ids, 2, 2, key), "URLS", b.NameTree(urls, 3, 2, pb.LitKey)))
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot, "Names", names))
	return b.Bytes()
}

func qpdfObjects(t *testing.T, path string) map[string]any {
	out, err := exec.Command("qpdf", "--json=2", "--json-key=qpdf", path).Output()
	if err != nil {
		t.Fatalf("qpdf --json: %v", err)
	}
	var doc struct {
		QPDF []json.RawMessage `json:"qpdf"`
	}
	if err := json.NewDecoder(bytes.NewReader(out)).Decode(&doc); err != nil || len(doc.QPDF) != 2 {
		t.Fatalf("qpdf --json: %v", err)
	}
	var objs map[string]any
	if err := json.Unmarshal(doc.QPDF[1], &objs); err != nil {
		t.Fatal(err)
	}
	return objs
}

var refRE = regexp.MustCompile(`^\d+ \d+ R$`)

func qpdfTreeKeys(t *testing.T, objs map[string]any, tree string) []string {
	deref := func(v any) any {
		for range 10 {
			s, ok := v.(string)
			if !ok || !refRE.MatchString(s) {
				return v
			}
			o, _ := objs["obj:"+s].(map[string]any)
			v = o["value"]
		}
		return v
	}
	trailer := objs["trailer"].(map[string]any)["value"].(map[string]any)
	root := deref(trailer["/Root"]).(map[string]any)
	names := deref(root["/Names"]).(map[string]any)
	var keys []string
	var walk func(n map[string]any)
	walk = func(n map[string]any) {
		if kids, ok := deref(n["/Kids"]).([]any); ok {
			for _, k := range kids {
				walk(deref(k).(map[string]any))
			}
			return
		}
		arr, _ := deref(n["/Names"]).([]any)
		for i := 0; i+1 < len(arr); i += 2 {
			s, _ := deref(arr[i]).(string)
			keys = append(keys, s)
		}
	}
	walk(deref(names["/"+tree]).(map[string]any))
	return keys
}
