package pdfio

import (
	"errors"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	pb "github.com/webcap/webcap/internal/pdfbuild"
)

// Every command that posts the same /P stream shares one decoded copy of
// it: 400 commands of a 60 MiB stream hold 60 MiB, not 24 GiB.
func TestSharedStreamDecodedOnce(t *testing.T) {
	b, err := pb.Hostile("shared-command-params")
	if err != nil {
		t.Fatal(err)
	}
	u, err := OpenUpdate(b, "shared.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := u.Document()
	if err != nil {
		t.Fatal(err)
	}
	if d.Info == nil || len(d.Info.Commands) != 400 {
		t.Fatalf("SpiderInfo %+v, want 400 commands", d.Info)
	}
	first := d.Info.Commands[0].PostData
	for i, c := range d.Info.Commands {
		if c.PostData == nil || len(*c.PostData) != 60<<20 {
			t.Fatalf("command %d: PostData is not the 60 MiB posted", i)
		}
		if &(*c.PostData)[0] != &(*first)[0] {
			t.Fatalf("command %d has a copy of its own of the posted data", i)
		}
	}
	if u.dec.used != 60<<20 {
		t.Errorf("%d bytes decoded, want the stream's 60 MiB once", u.dec.used)
	}
}

// A stream past a cap is not read (never cut short): the object that
// needed it is a TooLarge defect naming the stream and the cap, and the
// tree says it lost what is under it, as for anything it cannot read.
func TestDecodeCaps(t *testing.T) {
	b := pb.ObjectStreamsOf(4, 3<<20) // four object streams of 3 MiB and a set each
	for _, tc := range []struct {
		name        string
		opts        Options
		read        int    // sets read
		cap         string // what the defects name
		decodedUpTo int64
	}{
		{"within the caps", Options{}, 4, "", 13 << 20},
		{"one stream", Options{MaxStreamDecode: 2 << 20}, 0, "MaxStreamDecode", 8 << 20},
		{"in all", Options{MaxDecodeTotal: 7 << 20}, 2, "MaxDecodeTotal", 7 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, err := OpenUpdate(b, "streams.pdf", tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			d, err := u.Document()
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Sets) != tc.read {
				t.Errorf("%d sets read, want %d", len(d.Sets), tc.read)
			}
			unread := 0
			for _, e := range d.IDS.Entries {
				if e.Unreadable {
					unread++
				}
			}
			if unread != 4-tc.read {
				t.Errorf("%d IDS entries unreadable, want %d", unread, 4-tc.read)
			}
			for _, df := range d.Defects {
				if df.Kind != TooLarge || !strings.Contains(df.Message, tc.cap) || !strings.Contains(df.Message, "object stream") {
					t.Errorf("defect %s: %s, want %s naming the stream and %s", df.Kind, df.Message, TooLarge, tc.cap)
				}
			}
			if tc.read < 4 && len(d.Defects) == 0 {
				t.Error("no defect says what was not read")
			}
			if u.dec.used > tc.decodedUpTo {
				t.Errorf("%d bytes decoded, more than %d", u.dec.used, tc.decodedUpTo)
			}
		})
	}
}

func TestDecodeLimitIsAnError(t *testing.T) {
	dec := newDecoder(nil, Options{MaxStreamDecode: 10, MaxDecodeTotal: 100})
	sd := types.StreamDict{Dict: types.Dict{}, Raw: flate(strings.Repeat("a", 50)),
		FilterPipeline: []types.PDFFilter{{Name: "FlateDecode"}}}
	if _, err := dec.stream(7, &sd); !errors.Is(err, ErrDecodeLimit) {
		t.Errorf("50 bytes under a limit of 10: %v, want ErrDecodeLimit", err)
	}
	if _, err := dec.stream(7, &sd); !errors.Is(err, ErrDecodeLimit) {
		t.Errorf("asked again: %v, want the same error", err)
	}
	if dec.used != 10 {
		t.Errorf("used %d, want the 10 bytes decoded once", dec.used)
	}
}

// A cross-reference stream may list no more entries than the file has
// bytes (and at least 65,536): ten million inflated from 50 KB are
// refused, the table is rebuilt from the objects, and that is damage.
func TestXRefEntriesBoundedByFileSize(t *testing.T) {
	b, err := pb.Hostile("huge-xref-size")
	if err != nil {
		t.Fatal(err)
	}
	d, err := ReadBytes(b, "xref.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Pages) != 1 || len(d.Damage) != 1 || d.Damage[0].Kind != DamageXRef || !strings.Contains(d.Damage[0].Message, "lists 10000000 entries") {
		t.Errorf("%d pages, damage %+v; want the page, and the entries said", len(d.Pages), d.Damage)
	}
	if got := xrefEntryLimit(len(b)); got != 1<<16 {
		t.Errorf("xrefEntryLimit(%d) = %d, want %d", len(b), got, 1<<16)
	}
}
