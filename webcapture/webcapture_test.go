package webcapture_test

import (
	"testing"
	"time"

	"github.com/webcap/webcap/webcapture"
)

func TestParseDate(t *testing.T) {
	utc := func(y, mo, d, h, mi, s int) time.Time { return time.Date(y, time.Month(mo), d, h, mi, s, 0, time.UTC) }
	rows := []struct {
		raw   string
		want  time.Time
		zone  bool
		valid bool
	}{
		{"D:20150402085105Z", utc(2015, 4, 2, 8, 51, 5), true, true},   // Acrobat 6.0-15.0: bare Z
		{"D:20040512103000", utc(2004, 5, 12, 10, 30, 0), false, true}, // Acrobat 5.0: no zone
		{"D:20231231235959+01'00'", time.Date(2023, 12, 31, 22, 59, 59, 0, time.UTC), true, true},
		{"D:20231231235959-05'30", time.Date(2024, 1, 1, 5, 29, 59, 0, time.UTC), true, true},
		{"D:20231231235959+01", time.Date(2023, 12, 31, 22, 59, 59, 0, time.UTC), true, true},
		{"D:20231231235959Z00'00'", utc(2023, 12, 31, 23, 59, 59), true, true},
		{"D:1999", utc(1999, 1, 1, 0, 0, 0), false, true},
		{"D:199912", utc(1999, 12, 1, 0, 0, 0), false, true},
		{"20150402085105Z", utc(2015, 4, 2, 8, 51, 5), true, true}, // no D: prefix
		{"D:20150230000000Z", time.Time{}, false, false},           // February 30
		{"D:20151302000000Z", time.Time{}, false, false},           // month 13
		{"D:2015040208510", time.Time{}, false, false},             // cut short
		{"D:20150402085105X", time.Time{}, false, false},           // bad zone
		{"D:20150402085105+25'00'", time.Time{}, false, false},
		{"yesterday", time.Time{}, false, false},
		{"", time.Time{}, false, false},
		{"D:+0150402", time.Time{}, false, false},
	}
	for _, r := range rows {
		d, err := webcapture.ParseDate(r.raw)
		if d.Raw != r.raw {
			t.Errorf("ParseDate(%q).Raw = %q: the raw text must be kept", r.raw, d.Raw)
		}
		if d.Valid != r.valid || (err == nil) != r.valid {
			t.Errorf("ParseDate(%q) valid = %v, err = %v; want valid %v", r.raw, d.Valid, err, r.valid)
			continue
		}
		if r.valid && (!d.Time.Equal(r.want) || d.Zone != r.zone) {
			t.Errorf("ParseDate(%q) = %v zone %v, want %v zone %v", r.raw, d.Time, d.Zone, r.want, r.zone)
		}
	}
}

func TestIDs(t *testing.T) {
	id, err := webcapture.ParseID("83edd6aab530b644b8540f609e468f78")
	if err != nil || id.String() != "83EDD6AAB530B644B8540F609E468F78" {
		t.Fatalf("ParseID = %v, %v", id, err)
	}
	if r := id.Raw(); len(r) != 16 || r.Hex() != id.String() {
		t.Errorf("Raw() = %q", r)
	}
	for _, bad := range []string{"83ed", "zz", "83edd6aab530b644b8540f609e468f7800"} {
		if _, err := webcapture.ParseID(bad); err == nil {
			t.Errorf("ParseID(%q) succeeded", bad)
		}
	}
	// A malformed identifier keeps its bytes, whatever they are.
	raw := webcapture.RawID("\x00()\\\xFE\xFF\x80")
	if raw.Hex() != "0028295CFEFF80" {
		t.Errorf("Hex() = %s", raw.Hex())
	}
	if _, ok := raw.ID(); ok {
		t.Error("a 7-byte RawID converted to an ID")
	}
	back, err := webcapture.ParseRawID(raw.Hex())
	if err != nil || back != raw {
		t.Errorf("ParseRawID(Hex()) = %q, %v", back, err)
	}
	var u webcapture.ID
	if err := u.UnmarshalText([]byte("83EDD6AAB530B644B8540F609E468F78")); err != nil || u != id {
		t.Errorf("UnmarshalText = %v, %v", u, err)
	}
}

func TestText(t *testing.T) {
	rows := []struct {
		raw, want, enc string
	}{
		{"ToBeSigned.txt", "ToBeSigned.txt", "PDFDocEncoding"},
		{"\xFE\xFF\x00T\x00i\x00t\x00l\x00e\x20\xAC", "Title€", "UTF-16BE"},
		{"\xFE\xFF\xD8\x3D\xDE\x00", "😀", "UTF-16BE"},
		{"\xFE\xFF\x00A\x00", "A\uFFFD", "UTF-16BE"}, // odd length
		{"\xEF\xBB\xBFgrüß", "grüß", "UTF-8"},
		{"\x80\x92\xA0\xE9\x18", "•™€é˘", "PDFDocEncoding"},
		{"\x9F\xAD", "\uFFFD\uFFFD", "PDFDocEncoding"},
		{"", "", "PDFDocEncoding"},
	}
	for _, r := range rows {
		tx := webcapture.Text(r.raw)
		if got := tx.String(); got != r.want || tx.Encoding() != r.enc {
			t.Errorf("Text(%q) = %q (%s), want %q (%s)", r.raw, got, tx.Encoding(), r.want, r.enc)
		}
	}
}

func TestEngineName(t *testing.T) {
	good := []string{"ADBE:H2PDF:1.0:HTML", "ADBE::1.0:HTML", "ACME:x y:2:text/plain"}
	for _, s := range good {
		e, err := webcapture.ParseEngineName(s)
		if err != nil || e.String() != s {
			t.Errorf("ParseEngineName(%q) = %v, %v", s, e, err)
		}
	}
	bad := []string{"ADBE:H2PDF:1.0", "ADBE:H2PDF:1.0:HTML:x", ":H2PDF:1.0:HTML", "ADBE:H2PDF::HTML",
		"ADBE:H2PDF:1.0:", "ADBE:" + string(make([]byte, 130)) + ":1:HTML"}
	for _, s := range bad {
		if _, err := webcapture.ParseEngineName(s); err == nil {
			t.Errorf("ParseEngineName(%q) succeeded", s)
		}
	}
}

func TestFlags(t *testing.T) {
	rows := []struct {
		f    webcapture.Flags
		want string
	}{
		{0, "0"},
		{webcapture.SameSite, "SameSite"},
		{webcapture.SamePath | webcapture.Submit, "SamePath|Submit"},
		{7 | 8 | 0x80000000, "SameSite|SamePath|Submit|reserved(0x80000008)"},
	}
	for _, r := range rows {
		if got := r.f.String(); got != r.want {
			t.Errorf("Flags(%d).String() = %q, want %q", r.f, got, r.want)
		}
	}
	c := &webcapture.Command{URL: "http://a/"}
	if c.Depth() != 1 || c.FlagsOrDefault() != 0 || c.IsPost() {
		t.Error("command defaults are not L 1, F 0, GET")
	}
}

func TestSourceURLs(t *testing.T) {
	cs := &webcapture.ContentSet{Sources: []*webcapture.SourceInfo{
		{URLs: webcapture.AliasedURLs{Alias: true, URL: "http://c/", Chains: [][]string{{"http://a/", "http://b/"}, {"http://b/", "http://c/"}}}},
		{URLs: webcapture.AliasedURLs{URL: "http://a/"}},
		{URLs: webcapture.AliasedURLs{URL: "http://d/"}},
	}}
	got := cs.SourceURLs()
	want := []string{"http://a/", "http://b/", "http://c/", "http://d/"}
	if len(got) != len(want) {
		t.Fatalf("SourceURLs() = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("SourceURLs() = %q, want %q", got, want)
		}
	}
	if webcapture.Submission(1).String() != "GET" || webcapture.Submission(9).String() != "undefined(9)" {
		t.Error("Submission names")
	}
}

func TestNumberAndRef(t *testing.T) {
	if s := (webcapture.Number{Value: 1.25}).String(); s != "1.25" {
		t.Errorf("Number 1.25 = %q", s)
	}
	if s := (webcapture.Number{Value: 1, Integer: true}).String(); s != "1" {
		t.Errorf("Number 1 = %q", s)
	}
	if s := (webcapture.Ref{Num: 12}).String(); s != "12 0 R" {
		t.Errorf("Ref = %q", s)
	}
	if !(webcapture.Ref{}).IsZero() || (webcapture.Ref{}).String() != "direct" {
		t.Error("zero Ref")
	}
}
